#!/usr/bin/env python3
"""Check the ad-hoc code signature of a thin 64-bit Mach-O file.

    macho-signature.py FILE [--required]

macOS on Apple silicon loads no code whose signature does not match its
bytes, and stripping or editing a linker-signed file after the link breaks
the signature unless the tool signs again. This recomputes every page hash of
the signature's CodeDirectory over the file and compares: it prints
"FILE: signed, N pages verified" and exits 0, or names what is wrong and
exits 1. Without a signature it prints "FILE: unsigned" and exits 0, or 1
with --required (arm64 code must be signed).
"""
import hashlib
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
LC_CODE_SIGNATURE = 0x1D
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CSSLOT_CODEDIRECTORY = 0
HASHES = {1: ("sha1", 20), 2: ("sha256", 32), 3: ("sha256", 20), 4: ("sha384", 48)}


def fail(path, why):
    print(f"{path}: {why}", file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    required = "--required" in args
    paths = [a for a in args if a != "--required"]
    if len(paths) != 1:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    path = paths[0]
    data = open(path, "rb").read()
    if len(data) < 32 or struct.unpack_from("<I", data, 0)[0] != MH_MAGIC_64:
        fail(path, "not a thin 64-bit little-endian Mach-O file")
    ncmds, sizeofcmds = struct.unpack_from("<II", data, 16)
    off, sig = 32, None
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, off)
        if cmd == LC_CODE_SIGNATURE:
            sig = struct.unpack_from("<II", data, off + 8)
        if cmdsize < 8:
            fail(path, "malformed load command")
        off += cmdsize
    if sig is None:
        if required:
            fail(path, "has no code signature (LC_CODE_SIGNATURE); arm64 code must be signed")
        print(f"{path}: unsigned")
        return
    dataoff, datasize = sig
    if dataoff + datasize > len(data):
        fail(path, f"signature [{dataoff}, +{datasize}) runs past the end of the file ({len(data)} bytes)")
    magic, _length, count = struct.unpack_from(">III", data, dataoff)
    if magic != CSMAGIC_EMBEDDED_SIGNATURE:
        fail(path, f"signature blob magic {magic:#x}, want {CSMAGIC_EMBEDDED_SIGNATURE:#x}")
    cd = None
    for i in range(count):
        slot, blob = struct.unpack_from(">II", data, dataoff + 12 + 8 * i)
        if slot == CSSLOT_CODEDIRECTORY:
            cd = dataoff + blob
    if cd is None:
        fail(path, "signature has no CodeDirectory")
    (cd_magic, _cd_len, _version, _flags, hash_off, _ident, _n_special, n_code, code_limit,
     hash_size, hash_type, _platform, page_log2) = struct.unpack_from(">IIIIIIIIIBBBB", data, cd)
    if cd_magic != CSMAGIC_CODEDIRECTORY:
        fail(path, f"CodeDirectory magic {cd_magic:#x}")
    if code_limit != dataoff:
        fail(path, f"signature covers {code_limit} bytes, but the code runs to {dataoff}: the file changed after signing")
    if hash_type not in HASHES or HASHES[hash_type][1] != hash_size:
        fail(path, f"unknown hash type {hash_type} (size {hash_size})")
    page = 1 << page_log2
    want_slots = (code_limit + page - 1) // page
    if n_code != want_slots:
        fail(path, f"{n_code} page hashes for {want_slots} pages")
    algo = HASHES[hash_type][0]
    for i in range(n_code):
        chunk = data[i * page:min((i + 1) * page, code_limit)]
        got = hashlib.new(algo, chunk).digest()[:hash_size]
        want = data[cd + hash_off + i * hash_size:cd + hash_off + (i + 1) * hash_size]
        if got != want:
            fail(path, f"page {i} (bytes {i * page}..) does not match its signed hash: the file changed after signing")
    print(f"{path}: signed, {n_code} pages verified")


if __name__ == "__main__":
    main()
