"""The catalogs of words (attention_core/locales): the same keys, placeholders and plural forms in
every language, plural forms picked as the page picks them, no Korean particle glued to a value,
no English count without its plural forms, and no user-facing sentence left outside them."""
import ast
import json
import re

import pytest

from attention_core import words
from attention_core.words import LANGUAGES, PLURAL_FORMS, PLURAL_PLACEHOLDER, catalog, placeholders
from support import ROOT

PLURAL_CASES = json.loads((ROOT / "tests" / "plural_forms.json").read_text(encoding="utf-8"))["cases"]
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def leaves(value, path=()):
    """(path, value) of every template or plural value in a catalog (lists by index)."""
    if isinstance(value, str) or (hasattr(value, "keys") and set(value) <= {"zero", "one", "two", "few", "many", "other"}
                                  and "other" in value):
        yield path, value
    elif hasattr(value, "keys"):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    else:
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))


def templates(value):
    """The templates of a value: itself, or each form of a plural value."""
    return [value] if isinstance(value, str) else list(value.values())


CATALOGS = {lang: dict(leaves(catalog(lang))) for lang in LANGUAGES}


def test_every_language_has_a_catalog_with_the_same_keys():
    assert sorted(path.stem for path in words.LOCALES.glob("*.json")) == sorted(LANGUAGES)
    assert len(CATALOGS["ko"]) > 300  # every section was read
    for lang in LANGUAGES[1:]:
        assert sorted(CATALOGS[lang].keys() - CATALOGS["ko"].keys()) == []
        assert sorted(CATALOGS["ko"].keys() - CATALOGS[lang].keys()) == []


def test_every_value_has_the_same_placeholders_in_every_language_and_every_plural_form():
    for path, value in CATALOGS["ko"].items():
        expected = set(re.findall(r"\{(\w+)\}", templates(value)[0]))
        for lang in LANGUAGES:
            for form in templates(CATALOGS[lang][path]):
                assert set(re.findall(r"\{(\w+)\}", form)) == expected, (lang, path, form)


def test_a_plural_value_is_plural_in_every_language_with_its_forms_and_the_count_placeholder():
    plurals = {path for path, value in CATALOGS["en"].items() if not isinstance(value, str)}
    assert ("ui", "rest_keys") in plurals and ("worksheet", "meta") in plurals
    for lang in LANGUAGES:
        for path, value in CATALOGS[lang].items():
            if path in plurals:
                assert tuple(value) == PLURAL_FORMS[lang], (lang, path)
            else:
                assert isinstance(value, str), (lang, path)
            # {count} picks the form, so it is in plural values only, and in each of their forms
            assert (PLURAL_PLACEHOLDER in placeholders(value)) == (path in plurals), (lang, path)


@pytest.mark.parametrize("lang, count, form", PLURAL_CASES)
def test_the_plural_form_is_the_one_intl_plural_rules_gives(lang, count, form):
    assert words.plural_form(lang, count) == form


def test_text_picks_the_plural_form_by_count_and_fills_every_placeholder():
    assert words.text("rest_keys", "en", count=1, weight="0.1") == "The other 1 key carries 0.1"
    assert words.text("rest_keys", "en", count="3", weight="0.4") == "The other 3 keys carry 0.4"
    assert words.text("rest_keys", "ko", count=1, weight="0.1") == "나머지 Key 1개의 가중치 합: 0.1"
    assert words.text("meta", "en", "worksheet", count=1, seed=4).startswith("1 problem · seed 4")
    assert words.every_language("practice_title", number=3) == {"ko": "연습 문제 3", "en": "Practice problem 3"}
    with pytest.raises(KeyError, match="count"):
        words.text("rest_keys", "en", weight="0.1")
    with pytest.raises(KeyError, match="weight"):
        words.text("rest_keys", "en", count=2)


def test_the_catalog_is_read_once_and_cannot_be_changed():
    assert catalog("ko") is catalog("ko")
    with pytest.raises(TypeError):
        catalog("ko")["ui"]["app_title"] = "changed"
    with pytest.raises(ValueError, match="no catalog"):
        catalog("fr")


#: sections that are patterns of what lecturers write (app/note_reader.py), not words a reader is shown
PATTERN_SECTIONS = {"note_words"}


def test_no_korean_particle_follows_a_number_or_a_quoted_value():
    """A particle after a placeholder (는/은, 가/이, 를/을, 로/으로 …) depends on how the value ends,
    which the string cannot know: only counters (개, 자, 행, 번째) and 까지/부터 may follow one."""
    for path, value in CATALOGS["ko"].items():
        if path[0] in PATTERN_SECTIONS:
            continue
        for template in templates(value):
            for after in re.findall(r"\}'?([\uac00-\ud7a3]+)", template):
                assert after.startswith(("개", "자", "행", "번째", "까지", "부터")), (path, after, template)


#: placeholders that hold a constant size, never 1, so the noun after them needs no plural form
#: (editor and sentence limits, the why-√d measurement's sample sizes, the overview's pooled cells,
#: the W_O preset's widths)
CONSTANT_SIZES = {"limit", "max", "most", "samples", "keys", "cells", "width", "d_out"}


#: the nouns the page counts things in
COUNTED = "keys|heads|tokens|numbers|characters|rows|columns|layers|sentences|problems|words|queries|cells|students|answers|steps|pairs|stops"


def test_every_english_count_before_a_noun_has_its_plural_forms():
    """"{n} keys" must read "1 key" for one: a count before a plural noun is a plural value."""
    for path, value in CATALOGS["en"].items():
        if isinstance(value, str):
            counted = re.findall(rf"\{{(\w+)\}}(?: held-out)? (?:{COUNTED})\b", value)
            assert [name for name in counted if name not in CONSTANT_SIZES] == [], (path, value)
        else:
            assert re.search(rf"\{{count\}}(?: held-out)? (?:{COUNTED})\b", value["other"]), (path, value["other"])


# ---- no user-facing sentence outside the catalogs ----

#: modules whose Korean is data, not UI words: example sentences' tokens, the grammar corpus, the
#: rules' particles and time words, the vocabularies of the order and polysemy views; their Korean
#: literals are single words (tokens), never sentences
DATA_MODULES = {"attention_core/grammar.py", "attention_core/roles.py", "attention_core/reading.py",
                "attention_core/hangul.py", "attention_core/polysemy.py",
                "attention_core/order.py", "attention_core/practice.py", "attention_core/presets.py"}
#: Korean literals with a space that are data: the sentence a model opens with (the book's)
DATA_SENTENCES = {("app/models.py", "나는 어제 학교에서 친구를 만났다")}
#: left for the lead's rewrite of the Python ↔ page protocol (app/explorer.py is not this
#: branch's to edit): catalog keys titles.imported and titles.my_numbers_plain are ready for them


def _python_literals(path):
    """Every string constant of a module but its docstrings and params' doc= (comments are not
    constants): what a user could be shown."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    docstrings |= {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.keyword) and node.arg == "doc"}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def _javascript_literals(text):
    """The string and template literals of a module, its comments dropped."""
    literals, code = [], re.sub(r"^\s*//.*$", "", text, flags=re.M)
    for match in re.finditer(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`|//[^\n]*', code):
        if not match.group(0).startswith("//"):
            literals.append(next(group for group in match.groups() if group is not None))
    return literals


def _sources():
    for path in sorted([*ROOT.glob("app/*.py"), *ROOT.glob("attention_core/*.py")]):
        yield path.relative_to(ROOT).as_posix(), _python_literals(path)
    for path in sorted([*ROOT.glob("static/*.js"), *ROOT.glob("static/explorer/*.js")]):
        yield path.relative_to(ROOT).as_posix(), _javascript_literals(path.read_text(encoding="utf-8"))


def test_no_korean_words_are_written_outside_the_catalogs_but_data():
    found = []
    for name, literals in _sources():
        for literal in literals:
            if not HANGUL.search(literal) or (name, literal) in DATA_SENTENCES:
                continue
            if name in DATA_MODULES and not re.search(r"\s", literal):
                continue  # a token, a particle, a word of a vocabulary
            found.append((name, literal))
    assert found == []


def test_no_words_are_written_per_language_outside_the_catalogs():
    """A {"ko": …, "en": …} of literal words, or title_ko="…", is a catalog entry written in place."""
    found = []
    for path in sorted([*ROOT.glob("app/*.py"), *ROOT.glob("attention_core/*.py")]):
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if (isinstance(key, ast.Constant) and key.value in LANGUAGES
                            and isinstance(value, (ast.Constant, ast.JoinedStr, ast.List, ast.Dict))):
                        found.append((name, node.lineno))
            if isinstance(node, ast.keyword) and node.arg in {f"title_{lang}" for lang in LANGUAGES}:
                if isinstance(node.value, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.BoolOp)):
                    found.append((name, node.lineno))
    assert found == []


def test_the_scan_finds_a_korean_sentence_and_a_language_table_where_they_do_not_belong(tmp_path):
    module = tmp_path / "ui.py"
    module.write_text('"""독스트링은 괜찮아요."""\nP = Param(doc="설명도 괜찮아요")\nTITLE = {"ko": "내 문장", "en": "My sentence"}  # 주석도\n', encoding="utf-8")
    assert [literal for literal in _python_literals(module) if HANGUL.search(literal)] == ["내 문장"]
    script = '// 주석은 괜찮아요\nconst a = "보이는 말"; const b = `템플릿 ${x} 말`; // 끝 주석\n'
    assert [literal for literal in _javascript_literals(script) if HANGUL.search(literal)] == ["보이는 말", "템플릿 ${x} 말"]


#: one term per concept, the chapters' own (003: 스코어, Softmax, head): the words that must not appear
KOREAN_TERMS = {"점수": "스코어", "헤드": "head", "소프트맥스": "Softmax", "softmax": "Softmax", "쿼리": "Query"}
#: what may end like a written sentence (-다) rather than speak to the student (-요): the tagline, a
#: title, and the example sentences themselves
PLAIN_ENDINGS = {"tagline", "my_sentence_placeholder"}


def test_korean_words_hold_one_term_per_concept_and_one_register():
    table = catalog("ko")
    for section, entries in table.items():
        for path, template in leaves(entries):
            key = ".".join(map(str, path))
            for value in [template] if isinstance(template, str) else list(template.values()):
                check_korean(section, key, value)


def check_korean(section: str, key: str, value: str) -> None:
    if section in PATTERN_SECTIONS:
        return
    value = re.sub(r"“[^”]*”", "“”", value)  # the book quoted (chapter_*) keeps its own words and register
    for wrong, right in KOREAN_TERMS.items():
        # a placeholder may name softmax; the words a student reads may not
        assert wrong not in re.sub(r"\{[^}]*\}", "", value), (section, key, wrong, right)
    assert not re.search(r"니다(?=[.)\s]|$)", value), (section, key, "speak in -요, not -ㅂ니다", value)
    if section != "ui" or key.split(".")[0] in PLAIN_ENDINGS:
        return
    for sentence in re.split(r"(?<=[.!?])\s+", value):
        bare = re.sub(r"\s*\([^()]*\)\s*$", "", sentence.strip()).rstrip(".!?…")
        assert not re.search(r"[가-힣]다$", bare), (key, "speak in -요", sentence)
