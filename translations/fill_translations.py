#!/usr/bin/env python3
"""Fills translations/diamond_zh_CN.ts from translations/glossary_zh_CN.tsv and the English
.ts file with identity translations (so every string is "finished").

Workflow after changing UI strings:
  cmake --build build --target update_translations
  add the new source strings with their Chinese text to glossary_zh_CN.tsv
  python3 translations/fill_translations.py        (exits 1 listing any string still untranslated)
"""
import html
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
MESSAGE = re.compile(r"(<message(?: numerus=\"yes\")?>\s*<source>(.*?)</source>\s*)(<translation[^>]*>.*?</translation>|<translation[^>]*/>)", re.S)


def load_glossary():
    table = {}
    for line in (HERE / "glossary_zh_CN.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        source, _, target = line.partition("\t")
        table[source.replace("\\n", "\n")] = target.replace("\\n", "\n")
    return table


def fill(path, translate):
    text = path.read_text(encoding="utf-8")
    missing = []

    def repl(m):
        source = html.unescape(m.group(2))
        target = translate(source)
        if target is None:
            missing.append(source)
            return m.group(1) + '<translation type="unfinished"></translation>'
        return m.group(1) + "<translation>" + html.escape(target, quote=False) + "</translation>"

    path.write_text(MESSAGE.sub(repl, text), encoding="utf-8")
    return missing


def main():
    glossary = load_glossary()
    fill(HERE / "diamond_en.ts", lambda s: s)
    missing = fill(HERE / "diamond_zh_CN.ts", glossary.get)
    for s in missing:
        print("untranslated:", repr(s))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
