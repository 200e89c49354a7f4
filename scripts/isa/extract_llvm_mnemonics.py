#!/usr/bin/env python3
"""Dump the AMDGPU assembler's mnemonic table from an LLVM static library.

The TableGen-generated AsmMatcher (AMDGPUGenAsmMatcher.inc) stores every
mnemonic it can match (instruction AsmStrings and InstAliases, for all
subtargets, suffixes such as _e32/_e64/_sdwa/_dpp already stripped) in one
sorted table of length-prefixed strings.  This script finds that table in the
object code of libLLVMAMDGPUAsmParser.a (package llvm-19-dev) and prints one
mnemonic per line.  MnemonicAlias spellings (old names LLVM rewrites before
matching) are NOT in this table; gen_table.py gets those from ACO names and
systematic rename variants.

Usage:
  python3 scripts/isa/extract_llvm_mnemonics.py \
      [/usr/lib/llvm-19/lib/libLLVMAMDGPUAsmParser.a] > crates/isa/data/sources/llvm19_mnemonics.txt
"""
import subprocess
import sys
import tempfile
import os

OK = set(b"abcdefghijklmnopqrstuvwxyz0123456789_.")


def chain(d, p):
    out = []
    while p < len(d):
        n = d[p]
        if n == 0 or p + 1 + n > len(d):
            break
        s = d[p + 1:p + 1 + n]
        if not all(c in OK for c in s):
            break
        out.append(s.decode())
        p += 1 + n
    return out


def main():
    lib = sys.argv[1] if len(sys.argv) > 1 else "/usr/lib/llvm-19/lib/libLLVMAMDGPUAsmParser.a"
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["ar", "x", os.path.abspath(lib), "AMDGPUAsmParser.cpp.o"], cwd=tmp, check=True)
        d = open(os.path.join(tmp, "AMDGPUAsmParser.cpp.o"), "rb").read()
    best = []
    # The table is the longest chain of length-prefixed identifiers, sorted.
    anchor = d.find(b"\x08s_endpgm")
    if anchor < 0:
        sys.exit("mnemonic table not found")
    for st in range(max(0, anchor - 400000), anchor):
        if d[st] == 0 and 1 <= d[st + 1] < 64:
            c = chain(d, st + 1)
            if len(c) > 1000 and c == sorted(c):
                best = c
                break
    if not best:
        sys.exit("mnemonic table not found")
    print("# AMDGPU AsmMatcher mnemonic table of LLVM 19 (%d entries), extracted by" % len(best))
    print("# scripts/isa/extract_llvm_mnemonics.py from libLLVMAMDGPUAsmParser.a (Debian llvm-19-dev 19.1.7).")
    print("# Used only as a candidate list: gen_table.py keeps a name only if llvm-mc-19 accepts it.")
    for m in best:
        print(m)


if __name__ == "__main__":
    main()
