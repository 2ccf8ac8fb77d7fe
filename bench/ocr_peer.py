"""The peer of bench/ocr_bench.py: pytesseract on page images, text to stdout, in order."""
import sys

import pytesseract
from PIL import Image

for path in sys.argv[1:]:
    sys.stdout.write(pytesseract.image_to_string(Image.open(path), lang="eng"))
    sys.stdout.write("\n")
