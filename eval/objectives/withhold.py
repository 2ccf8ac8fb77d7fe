#!/usr/bin/env python3
"""Copy an OpenStax book with every module's "Learning Objectives" section removed, so that a
curriculum built from the copy writes its own objectives where the book states them.

    python3 eval/objectives/withhold.py ../shared/corpus/openstax/introduction-philosophy /tmp/book-withheld
"""
import re
import shutil
import sys
from pathlib import Path

source, target = Path(sys.argv[1]), Path(sys.argv[2])
if target.exists():
    shutil.rmtree(target)
shutil.copytree(source, target)
removed = 0
for module in sorted(target.glob("modules/*/index.cnxml")):
    text = module.read_text(encoding="utf-8")
    text, n = re.subn(r'<section class="learning-objectives"[^>]*>.*?</section>', "", text, flags=re.S)
    removed += n
    module.write_text(text, encoding="utf-8")
print(f"{removed} learning-objectives sections removed", file=sys.stderr)
