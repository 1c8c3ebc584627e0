"""Makes a browser screenshot small enough to commit (docs/screenshots): Chromium writes 24-bit RGB(A) PNGs; this
rewrites one as an 8-bit palette PNG of at most `colours` colours, with nothing but the standard library.

The palette is the most used colours, each kept only if it is not close to one already kept (flat backgrounds,
buttons and text come first; anti-aliased edges fall to the nearest kept colour). Good enough for pages of flat
colours and text, which is what the embed pages are; not for photographs."""
import struct
import zlib


def _chunks(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at = 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, data[at + 8:at + 8 + length]
        at += 12 + length


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_rgb(data):
    """(width, height, pixels) of an 8-bit RGB or RGBA PNG, pixels as 0xRRGGBB ints row by row (alpha dropped)."""
    header = None
    compressed = bytearray()
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed += body
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(bytes(compressed))
    stride = width * bpp
    previous = bytearray(stride)
    pixels = []
    at = 0
    for _ in range(height):
        kind = raw[at]
        row = bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        if kind == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif kind == 2:
            for i in range(stride):
                row[i] = (row[i] + previous[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                up_left = previous[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + _paeth(left, previous[i], up_left)) & 255
        pixels.extend((row[i] << 16) | (row[i + 1] << 8) | row[i + 2] for i in range(0, stride, bpp))
        previous = row
    return width, height, pixels


def _distance(a, b):
    dr = (a >> 16) - (b >> 16)
    dg = ((a >> 8) & 255) - ((b >> 8) & 255)
    db = (a & 255) - (b & 255)
    return 2 * dr * dr + 4 * dg * dg + 3 * db * db


def palette_png(width, height, pixels, colours=128, separation=150):
    counts = {}
    for pixel in pixels:
        counts[pixel] = counts.get(pixel, 0) + 1
    palette = []
    for colour, _ in sorted(counts.items(), key=lambda entry: -entry[1]):
        if all(_distance(colour, kept) > separation for kept in palette):
            palette.append(colour)
            if len(palette) == colours:
                break
    index = {}
    for colour in counts:
        index[colour] = min(range(len(palette)), key=lambda i: _distance(colour, palette[i]))
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        raw.extend(index[pixel] for pixel in pixels[y * width:(y + 1) * width])

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    plte = b"".join(bytes(((c >> 16) & 255, (c >> 8) & 255, c & 255)) for c in palette)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", plte) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def shrink(path, colours=128):
    """Rewrites the PNG at `path` with a palette of at most `colours`; answers (bytes before, bytes after)."""
    with open(path, "rb") as file:
        data = file.read()
    small = palette_png(*read_rgb(data), colours=colours)
    if len(small) < len(data):
        with open(path, "wb") as file:
            file.write(small)
    return len(data), min(len(small), len(data))


if __name__ == "__main__":
    import sys

    for name in sys.argv[1:]:
        print(name, *shrink(name))
