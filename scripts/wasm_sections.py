"""Reading a wasm module's sections: shared by size-profile.py and snip-wasm.py."""


def leb128(buf, i):
    """The unsigned LEB128 number at `buf[i]`, and the index after it."""
    value = shift = 0
    while True:
        byte = buf[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb(value):
    """`value` as unsigned LEB128 bytes."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sections(buf):
    """(id, header start, payload start, end) of each section."""
    i = 8
    while i < len(buf):
        head = i
        kind = buf[i]
        size, i = leb128(buf, i + 1)
        yield kind, head, i, i + size
        i += size


def imported_functions(buf, start):
    """How many functions the import section at `start` imports (they take the first indices)."""
    count, i = leb128(buf, start)
    functions = 0
    for _ in range(count):
        for _ in range(2):
            length, i = leb128(buf, i)
            i += length
        desc = buf[i]
        i += 1
        if desc == 0:
            _, i = leb128(buf, i)
            functions += 1
        elif desc == 1:
            i += 1
            flags, i = leb128(buf, i)
            _, i = leb128(buf, i)
            if flags & 1:
                _, i = leb128(buf, i)
        elif desc == 2:
            flags, i = leb128(buf, i)
            _, i = leb128(buf, i)
            if flags & 1:
                _, i = leb128(buf, i)
        elif desc == 3:
            i += 2
        else:
            _, i = leb128(buf, i + 1)
    return functions


def function_names(buf, start, end):
    """The function names of the custom section at `start`..`end`, if it is the `name` section."""
    length, i = leb128(buf, start)
    if buf[i:i + length] != b'name':
        return {}
    i += length
    names = {}
    while i < end:
        sub = buf[i]
        size, i = leb128(buf, i + 1)
        if sub == 1:
            count, j = leb128(buf, i)
            for _ in range(count):
                index, j = leb128(buf, j)
                length, j = leb128(buf, j)
                names[index] = buf[j:j + length].decode('utf-8', 'replace')
                j += length
        i += size
    return names
