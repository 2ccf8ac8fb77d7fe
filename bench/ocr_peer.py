"""The peer of bench/ocr_bench.py: pytesseract on page images, text to stdout, in order.

    ocr_peer.py [--jobs N] IMAGE...

With --jobs N the pages are read by N processes at once (a multiprocessing pool, as a script
that wants every core would do it), the text still in page order.
"""
import sys
from multiprocessing import Pool

import pytesseract
from PIL import Image


def read(path):
    return pytesseract.image_to_string(Image.open(path), lang="eng")


if __name__ == "__main__":
    args = sys.argv[1:]
    jobs = 1
    if args[:1] == ["--jobs"]:
        jobs, args = int(args[1]), args[2:]
    if jobs > 1 and len(args) > 1:
        with Pool(min(jobs, len(args))) as pool:
            texts = pool.map(read, args)
    else:
        texts = [read(path) for path in args]
    for text in texts:
        sys.stdout.write(text)
        sys.stdout.write("\n")
