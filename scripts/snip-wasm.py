#!/usr/bin/env python3
"""Replaces the bodies of the functions a wasm never calls with `unreachable`, by name.

usage: python3 scripts/snip-wasm.py FILE.wasm PATTERN [PATTERN...]

Each function whose name (the wasm's `name` section, as wasm-bindgen leaves it) matches one of
the PATTERNs (Python regular expressions, searched in the demangled name) gets the body
`unreachable`; wasm-opt then drops whatever only those bodies called. The file is rewritten in
place, and the count and bytes of the bodies replaced are printed. Run it before wasm-opt, which
strips the names. The idea is wasm-snip's (rustwasm); this is a few lines of section rewriting
instead of a tool to build.

A snipped function that does run traps: the engine's browser tests run every path the page
takes, so a wrong pattern fails them.
"""
import re
import sys

from wasm_sections import function_names, imported_functions, leb128, sections, uleb


# No locals; `unreachable`; `end`.
UNREACHABLE = bytes([0x00, 0x00, 0x0B])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, patterns = sys.argv[1], [re.compile(pattern) for pattern in sys.argv[2:]]
    buf = open(path, 'rb').read()
    imported, names, code = 0, {}, None
    for kind, head, start, end in sections(buf):
        if kind == 2:
            imported = imported_functions(buf, start)
        elif kind == 10:
            code = (head, start, end)
        elif kind == 0:
            names.update(function_names(buf, start, end))
    if not names or code is None:
        sys.exit(f'{path}: no name section or no code: give the wasm wasm-bindgen wrote, before wasm-opt')
    head, start, end = code
    count, i = leb128(buf, start)
    bodies = bytearray(uleb(count))
    snipped = saved = 0
    for index in range(count):
        size, body = leb128(buf, i)
        name = names.get(imported + index, '')
        if size > len(UNREACHABLE) and any(pattern.search(name) for pattern in patterns):
            bodies += uleb(len(UNREACHABLE)) + UNREACHABLE
            snipped += 1
            saved += size - len(UNREACHABLE)
        else:
            bodies += buf[i:body + size]
        i = body + size
    out = buf[:head] + bytes([10]) + uleb(len(bodies)) + bytes(bodies) + buf[end:]
    open(path, 'wb').write(out)
    print(f'{path}: {snipped} function bodies replaced with unreachable, {saved} bytes')


if __name__ == '__main__':
    main()
