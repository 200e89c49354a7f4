#!/usr/bin/env python3
"""Write a clang offload bundle (the binary format clang-offload-bundler writes).

Layout (clang/lib/Driver/OffloadBundler.cpp, "binary" bundles): the 24-byte magic
`__CLANG_OFFLOAD_BUNDLE__`, a little-endian u64 entry count, then per entry u64 offset,
u64 size, u64 triple length and the triple (no NUL); the code objects follow, each at its
offset (aligned to 4096 here, as the bundler does). A host entry of size 0 comes first, as
in the bundles hipcc makes.

usage: make_bundle.py OUT TRIPLE=FILE...
"""
import struct
import sys

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


def main() -> None:
    out, pairs = sys.argv[1], sys.argv[2:]
    entries = [("host-x86_64-unknown-linux-gnu-", b"")]
    for p in pairs:
        triple, path = p.split("=", 1)
        with open(path, "rb") as f:
            entries.append((triple, f.read()))
    header = len(MAGIC) + 8 + sum(24 + len(t) for t, _ in entries)
    offset = (header + 4095) // 4096 * 4096
    table, blobs = b"", b""
    for triple, data in entries:
        if data:
            table += struct.pack("<QQQ", offset, len(data), len(triple)) + triple.encode()
            pad = (-(offset + len(data))) % 4096
            blobs += data + b"\0" * pad
            offset += len(data) + pad
        else:
            table += struct.pack("<QQQ", 0, 0, len(triple)) + triple.encode()
    head = MAGIC + struct.pack("<Q", len(entries)) + table
    head += b"\0" * ((header + 4095) // 4096 * 4096 - len(head))
    with open(out, "wb") as f:
        f.write(head + blobs)


if __name__ == "__main__":
    main()
