package hookline

// OutstandingHandles exposes outstandingHandles to the tests (package
// hookline_test) without making it part of the API: files ending in
// _test.go are compiled only by `go test`.
func OutstandingHandles() int64 { return outstandingHandles() }
