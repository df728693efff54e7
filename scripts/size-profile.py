#!/usr/bin/env python3
"""Where the engine's bytes go: code size per Rust crate, from the wasm's `name` section.

usage: python3 scripts/size-profile.py [FILE.wasm] [TOP]

FILE defaults to the engine worker's wasm as cargo writes it (with names, before wasm-bindgen
and wasm-opt). Each function body is credited to the first crate its symbol names; both of
rustc's manglings are read (legacy `_ZN…` and v0 `_R…`, the nightly default). Prints the code
and data totals, then the TOP crates (default 25).
"""
import collections
import os
import re
import sys

from wasm_sections import function_names, imported_functions, leb128, sections


def read(path):
    buf = open(path, 'rb').read()
    imported, bodies, names, data = 0, [], {}, 0
    for kind, _, start, end in sections(buf):
        if kind == 2:
            imported = imported_functions(buf, start)
        elif kind == 10:  # code
            count, i = leb128(buf, start)
            for _ in range(count):
                size, i = leb128(buf, i)
                bodies.append(size)
                i += size
        elif kind == 11:  # data
            data += end - start
        elif kind == 0:  # custom: the `name` section's function names
            names.update(function_names(buf, start, end))
    return imported, bodies, names, data


def crate(symbol):
    legacy = re.match(r'_ZN(\d+)', symbol)
    if legacy:
        start = legacy.end()
        segment = symbol[start:start + int(legacy.group(1))]
        # `<T as Trait>::f` mangles as `_$LT$path..T$u20$as$u20$...$GT$`: credit T's crate.
        segment = segment.removeprefix('_$LT$').removeprefix('$LT$')
        name = re.match(r'[A-Za-z_][A-Za-z0-9_]*', segment)
        return name.group(0) if name else '?'
    if symbol.startswith('_R'):
        v0 = re.search(r'C(?:s[0-9A-Za-z]*_)?(\d+)([A-Za-z_][A-Za-z0-9_]*)', symbol)
        if v0:
            return v0.group(2)[:int(v0.group(1))]
    plain = re.match(r'^<?([A-Za-z_]\w*)', symbol)
    return plain.group(1) if plain else '?'


def main():
    default = os.path.join(
        os.environ.get('CARGO_TARGET_DIR') or os.path.join(os.path.dirname(__file__), '..', 'target'),
        'wasm32-unknown-unknown', 'engine-release', 'engine-worker.wasm')
    path = sys.argv[1] if len(sys.argv) > 1 else default
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    imported, bodies, names, data = read(path)
    if not names:
        sys.exit('no name section: give the wasm cargo wrote, before wasm-bindgen and wasm-opt')
    by_crate = collections.Counter()
    for index, size in enumerate(bodies):
        by_crate[crate(names.get(imported + index, '?'))] += size
    total = sum(bodies)
    print(f'{path}\ncode {total / 1e6:.2f} MB in {len(bodies)} functions; data segments {data / 1e6:.2f} MB')
    for name, size in by_crate.most_common(top):
        print(f'{size / 1e6:8.3f} MB {100 * size / total:5.1f}%  {name}')


if __name__ == '__main__':
    main()
