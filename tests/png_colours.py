#!/usr/bin/env python3
"""png_colours.py FILE.png: print how many distinct colours an 8-bit RGB or
RGBA PNG (what rsvg-convert writes) holds, and how many of its pixels are
saturated (their channels differ by more than 64): a picture drawn in
colour has both, one rendered black on white has neither. The standard
library only: zlib and the PNG filters by hand."""
import struct
import sys
import zlib


def rows(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('%s: not a PNG' % path)
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or colour not in (2, 6) or interlace:
                sys.exit('%s: not 8-bit RGB or RGBA' % path)
            bpp = 3 if colour == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        yield line, bpp
        prev = line


def main():
    colours, saturated = set(), 0
    for line, bpp in rows(sys.argv[1]):
        for i in range(0, len(line), bpp):
            px = tuple(line[i:i + 3])
            colours.add(px)
            if max(px) - min(px) > 64 and (bpp == 3 or line[i + 3] > 128):
                saturated += 1
    print(len(colours), saturated)


main()
