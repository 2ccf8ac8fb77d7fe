#!/bin/sh
# PDF pages per second and peak RSS against pdftotext (see pdf_bench.py). Run by `make bench`.
exec python3 "$(dirname "$0")/pdf_bench.py" "$@"
