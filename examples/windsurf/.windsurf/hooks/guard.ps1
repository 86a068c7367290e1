# The Windows twin of guard.sh: Cascade runs an entry's `powershell` script there.
$payload = [Console]::In.ReadToEnd()
if ($payload -match '"command_line":"rm -rf') {
  [Console]::Error.WriteLine("recursive removal is not allowed here")
  exit 2
}
exit 0
