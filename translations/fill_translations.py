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
MESSAGE = re.compile(r"(<message( numerus=\"yes\")?>\s*<source>(.*?)</source>\s*)(<translation[^>]*>.*?</translation>|<translation[^>]*/>)", re.S)


def load_glossary():
    table = {}
    for line in (HERE / "glossary_zh_CN.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        source, _, target = line.partition("\t")
        table[source.replace("\\n", "\n")] = target.replace("\\n", "\n")
    return table


def english_forms(source):
    """'%n run(s)' -> ['%n run', '%n runs']."""
    return [source.replace("(s)", ""), source.replace("(s)", "s")]


def fill(path, translate, numerus_forms):
    text = path.read_text(encoding="utf-8")
    missing = []

    def repl(m):
        numerus = bool(m.group(2))
        source = html.unescape(m.group(3))
        target = translate(source)
        if target is None:
            missing.append(source)
            return m.group(1) + '<translation type="unfinished"></translation>'
        if numerus:
            forms = "".join("<numerusform>" + html.escape(f, quote=False) + "</numerusform>"
                            for f in numerus_forms(source, target))
            return m.group(1) + "<translation>" + forms + "</translation>"
        return m.group(1) + "<translation>" + html.escape(target, quote=False) + "</translation>"

    path.write_text(MESSAGE.sub(repl, text), encoding="utf-8")
    return missing


def main():
    glossary = load_glossary()
    fill(HERE / "diamond_en.ts", lambda s: s, lambda source, target: english_forms(source))
    missing = fill(HERE / "diamond_zh_CN.ts", glossary.get, lambda source, target: [target])  # Chinese: one form
    for s in missing:
        print("untranslated:", repr(s))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
