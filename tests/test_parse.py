"""parse: the registry; each decoder against its repository's own outputs (fixtures from a
differential run of the repository's function in place, tests/data/parse/README.md); gold
structures rendered with the repository's target template and read back; failure reports,
strict mode, and the structures scored by quad_match."""

import json
import random
import re

import pytest
from conftest import DATA, SPACES_DIR
from test_quad_match import naive_parse  # the per-text oracle: each text read alone, the failing indices listed

from paperscore import parse as P
from paperscore.quad import compute

FIXTURES = json.loads((DATA / "parse" / "quad_decoders.json").read_text(encoding="utf-8"))

# Each repository's output tuple, in its element order, as quad.py's positions (tuple_len order):
# ABSA-QUAD and MvP decode (category, aspect term, sentiment, opinion term); quad.py wants
# target (aspect term), opinion, aspect category, polarity. ABSA-QUAD's TASD decodes
# (category, aspect term, sentiment), tuple_len "023" wants aspect term, category,
# sentiment. GAS's annotated ASTE decodes (aspect, sentiment, opinion), "013" wants
# (aspect, opinion, sentiment). GAS's other tuples, ABSA-QUAD's ASTE and MvP's LLM tuples
# are already in tuple_len order.
ORDER = {"asqp_paraphrase": (1, 3, 0, 2), "mvp": (1, 3, 0, 2), "asqp_paraphrase_tasd": (1, 0, 2), "gas_annotation_aste": (0, 2, 1)}


def expected_structure(name, output):
    width = len(P.get_parser(name).tuple_len)
    if isinstance(output, dict):  # MvP's literal is not a list: documented as no quads
        return []
    structure = []
    for item in output:
        if isinstance(item, dict):  # an item MvP counts but can never match: an empty quad
            structure.append([""] * width)
        else:
            structure.append([item[i] for i in ORDER[name]] if name in ORDER else item)
    return structure


# ---------------------------------------------------------------------------------------
# The registry


def test_registry_names_versions_and_unknown_names():
    assert P.get_parser("asqp_paraphrase") is P.get_parser("asqp_paraphrase@1")
    assert P.parser_id(P.get_parser("mvp")) == "mvp@1"
    for name in ("nope", "asqp_paraphrase@2", "asqp", ""):
        with pytest.raises(ValueError, match=r"unknown parser .*known: .*asqp_paraphrase@1, .*gas_aste@1.*mvp@1"):
            P.get_parser(name)
    with pytest.raises(ValueError, match="unknown parser 'mvp' for micro_macro"):
        P.get_parser("mvp", family="micro_macro")
    with pytest.raises(ValueError, match="not a parser name"):
        P.get_parser(None)
    for key, parser in P.PARSERS.items():
        assert key == f"{parser.name}@{parser.version}" and parser.read.__doc__
        assert set(parser.tuple_len) <= set("0123") if parser.family == "quad_match" else parser.family in ("csc", "micro_macro", "coref", "rationale_f1") and parser.tuple_len is None
    with pytest.raises(ValueError, match=r"unknown parser 'mvp' for csc; known: cllm_reply@1, cllm_reply@2, csc_first_line@1, csc_first_line@2, csc_label@1, csc_label@2, csc_quotes@1, csc_quotes@2, csc_reply@1, csc_reply@2, pycorrector_gpt@1, simple_csc_line@1$"):
        P.get_parser("mvp", family="csc")


def test_parse_checks_its_texts():
    with pytest.raises(ValueError, match="predictions: expected a list of model texts, got str"):
        P.parse("food is great because it is ok", "asqp_paraphrase")
    with pytest.raises(ValueError, match=r"references\[1\]: is a NoneType, not a model text for the parser mvp@1"):
        P.parse(["[A] a [O] b [C] c [S] d", None], "mvp", argument="references")


# ---------------------------------------------------------------------------------------
# Against the repositories' own functions (agreed outputs of the differential run)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_agrees_with_the_repository_function(name):
    cases = FIXTURES[name]
    assert len(cases) >= 120
    structures, _ = P.parse([case["text"] for case in cases], name)
    for case, structure in zip(cases, structures):
        assert structure == expected_structure(name, case["repository_output"]), case["text"]


def test_fixtures_cover_malformed_text():
    for name, cases in FIXTURES.items():
        _, report = P.parse([case["text"] for case in cases], name)
        assert 0.15 * len(cases) < report["parse_failures"] < 0.9 * len(cases), name


# ---------------------------------------------------------------------------------------
# Round trips: random gold rendered with each repository's target template, read back

EN = "food pizza service staff wine place price great bad good the very not".split()
ZH = list("服务很好菜品味道不错价格贵环境安静屏幕手机电池续航")
CATEGORIES = ["food quality", "service general", "restaurant general", "屏幕#显示", "价格"]


def element(rng):
    if rng.random() < 0.4:
        return "".join(rng.choice(ZH) for _ in range(rng.randint(1, 5)))
    return " ".join(rng.choice(EN) for _ in range(rng.randint(1, 3)))


def gold(rng, polarities, implicit, count=None):
    return [
        [implicit if rng.random() < 0.2 else element(rng), element(rng), rng.choice(CATEGORIES), rng.choice(polarities)]
        for _ in range(rng.randint(1, 4) if count is None else count)
    ]


def test_asqp_paraphrase_round_trip():
    # ABSA-QUAD data_utils.get_para_asqp_targets: "{ac} is {sentiment word} because {at} is {ot}",
    # "it" for an implicit (NULL) aspect term, joined by " [SSEP] ".
    rng = random.Random(1)
    golds = [gold(rng, ["great", "bad", "ok"], "NULL") for _ in range(500)]
    texts = [" [SSEP] ".join(f"{c} is {s} because {'it' if t == 'NULL' else t} is {o}" for t, o, c, s in g) for g in golds]
    structures, report = P.parse(texts, "asqp_paraphrase")
    assert structures == golds and report == {"parser": "asqp_paraphrase@1", "parse_failures": 0, "parse_failure_examples": []}


def test_asqp_paraphrase_aste_and_tasd_round_trip():
    # ABSA-QUAD data_utils.get_para_aste_targets: "It is {great|bad|ok} because {a} is {b}";
    # get_para_tasd_targets: "{ac} is {word} because {at} is {word}", "it" for NULL.
    rng = random.Random(6)
    words = {"positive": "great", "negative": "bad", "neutral": "ok"}
    golds = [gold(rng, list(words), "NULL") for _ in range(400)]
    aste = [[[t, o, s] for t, o, c, s in g if t != "NULL"] or [[element(rng), element(rng), "neutral"]] for g in golds]
    texts = [" [SSEP] ".join(f"It is {words[s]} because {t} is {o}" for t, o, s in g) for g in aste]
    assert P.parse(texts, "asqp_paraphrase_aste") == (aste, {"parser": "asqp_paraphrase_aste@1", "parse_failures": 0, "parse_failure_examples": []})
    tasd = [[[t, c, s] for t, o, c, s in g] for g in golds]
    texts = [" [SSEP] ".join(f"{c} is {words[s]} because {'it' if t == 'NULL' else t} is {words[s]}" for t, c, s in g) for g in tasd]
    structures, report = P.parse(texts, "asqp_paraphrase_tasd")
    assert structures == tasd and report["parse_failures"] == 0


def test_asqp_paraphrase_aste_and_tasd_failures():
    # aste: the first 6 characters go whatever they are; an unknown word is "nope"
    structures, report = P.parse(["XXXXXXgreat because a is b", "It is good because a is b", "It is ok because a is b is c"], "asqp_paraphrase_aste")
    assert structures == [[["a", "b", "positive"]], [["a", "b", "nope"]], [["", "", ""]]] and report["parse_failure_examples"] == [1, 2]
    # tasd: the first word decides; disagreeing words and unknown words are reported
    structures, report = P.parse(["c is great because It is bad", "c is great because x is great", "c is fine because x is fine", "c is ok"], "asqp_paraphrase_tasd")
    assert structures == [[["NULL", "c", "positive"]], [["x", "c", "positive"]], [["x", "c", "nope"]], [["", "", ""]]]
    assert report["parse_failure_examples"] == [0, 2, 3]


def test_mvp_round_trip_in_any_marker_order():
    # MvP data_utils.get_para_targets: "{marker} {value}" for each of [A] [O] [C] [S] in the
    # order's sequence, joined by spaces; "it" for an implicit aspect term (decoded "null").
    rng = random.Random(2)
    golds = [gold(rng, ["great", "bad", "ok"], "null") for _ in range(500)]
    texts = []
    for g in golds:
        pieces = []
        for t, o, c, s in g:
            pairs = [("[A]", "it" if t == "null" else t), ("[O]", o), ("[C]", c), ("[S]", s)]
            rng.shuffle(pairs)
            pieces.append(" ".join(f"{marker} {value}" for marker, value in pairs))
        texts.append(" [SSEP] ".join(pieces))
    structures, report = P.parse(texts, "mvp")
    assert structures == golds and report["parse_failures"] == 0


@pytest.mark.parametrize("name", ["gas_uabsa", "gas_aope", "gas_aste", "gas_tasd"])
def test_gas_extraction_round_trip(name):
    # Generative-ABSA data_utils.get_extraction_*_targets: "(" + ", ".join(tuple) + ")" joined
    # by "; "; UABSA writes "None" for a sentence without aspects.
    rng = random.Random(3)
    tuple_len = P.get_parser(name).tuple_len
    golds = [[[q[int(code)] for code in tuple_len] for q in gold(rng, ["positive", "negative", "neutral"], "NULL", rng.randint(name == "gas_uabsa" and 0, 4) or None)] for _ in range(500)]
    golds = [g if g or name == "gas_uabsa" else [[element(rng) for _ in tuple_len]] for g in golds]
    texts = ["; ".join("(" + ", ".join(t) + ")" for t in g) if g else "None" for g in golds]
    structures, report = P.parse(texts, name)
    assert structures == golds and report["parse_failures"] == 0


@pytest.mark.parametrize("name", ["gas_annotation_uabsa", "gas_annotation_aope", "gas_annotation_aste", "gas_annotation_tasd"])
def test_gas_annotation_round_trip(name):
    # Generative-ABSA data_utils.get_annotated_*_targets: the sentence with each aspect term
    # replaced by "[term|sentiment]" (UABSA), "[term|opinions]" (AOPE), "[term|sentiment|
    # opinions]" (ASTE) or "[term|categories|sentiment]" (TASD); several opinions or
    # categories of one term joined by ", ". Here one tuple per bracket, plus one grouped.
    rng = random.Random(7)
    tuple_len = P.get_parser(name).tuple_len
    golds, texts = [], []
    for _ in range(300):
        g = [[q[int(code)] for code in tuple_len] for q in gold(rng, ["positive", "negative", "neutral"], "NULL")]
        if name.endswith("aste"):
            brackets = [f"[{t}|{s}|{o}]" for t, o, s in g]
        else:
            brackets = [f"[{'|'.join(t)}]" for t in g]
        if not name.endswith("uabsa"):  # a second value of the first term, in its bracket
            extra, first = element(rng), g[0]
            if name.endswith("aste"):
                brackets[0] = f"[{first[0]}|{first[2]}|{first[1]}, {extra}]"
            else:
                brackets[0] = "[" + "|".join([first[0], f"{first[1]}, {extra}", *first[2:]]) + "]"
            g.insert(1, [first[0], extra, *first[2:]])
        texts.append(" ".join(f"{element(rng)} {b}" for b in brackets) + " .")
        golds.append(g)
    structures, report = P.parse(texts, name)
    assert structures == golds and report["parse_failures"] == 0


def test_gas_annotation_by_hand():
    text = "the [pizza|positive|great, cheap] and [wine|bad] [a|b|c|d] [x|neutral|ok,fine]"
    structures, report = P.parse([text], "gas_annotation_aste")
    # split on ", " only when the last part holds ","; "ok,fine" stays one opinion
    empty = ["", "", ""]
    assert structures == [[["pizza", "great", "positive"], ["pizza", "cheap", "positive"], empty, empty, ["x", "ok,fine", "neutral"]]]
    assert report["parse_failures"] == 1
    # TASD: a middle part that is no sentiment word holds the categories
    assert P.parse(["[NULL|food quality, food prices|negative]"], "gas_annotation_tasd")[0] == [[["NULL", "food quality", "negative"], ["NULL", "food prices", "negative"]]]
    assert P.parse(["no brackets here", "[a|b]\n[c|d]"], "gas_annotation_aope") == ([[], [["a", "b"], ["c", "d"]]], {"parser": "gas_annotation_aope@1", "parse_failures": 0, "parse_failure_examples": []})


@pytest.mark.parametrize("name", ["mvp_llm", "mvp_llm_aste", "mvp_llm_tasd"])
def test_mvp_llm_round_trip(name):
    # MvP llms/prompts: "[('aspect term', 'opinion term', 'aspect category', 'sentiment polarity'), ...]"
    # (ASTE drops the category, TASD the opinion); the model's reply is a Python literal.
    rng = random.Random(4)
    tuple_len = P.get_parser(name).tuple_len
    golds = [[[q[int(code)] for code in tuple_len] for q in gold(rng, ["positive", "negative", "neutral"], "null")] for _ in range(300)]
    texts = [(" " if rng.random() < 0.5 else "") + repr([tuple(t) for t in g]) + "\n" for g in golds]
    structures, report = P.parse(texts, name)
    assert structures == golds and report["parse_failures"] == 0


@pytest.mark.parametrize("preset", sorted(P.JSON_KEYS))
def test_llm_json_round_trip(preset):
    # Our convention: a JSON list of objects with the preset's keys, bare or in a ``` block
    # (with or without the "json" info string, with prose around it); null for implicit.
    rng = random.Random(5)
    keys = P.JSON_KEYS[preset]
    golds = [gold(rng, ["positive", "negative", "正面"], None) for _ in range(300)]
    texts = []
    for g in golds:
        body = json.dumps([dict(zip(keys, q)) | ({"reason": "x"} if rng.random() < 0.2 else {}) for q in g], ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 2]))
        texts.append(rng.choice([body, f"```json\n{body}\n```", f"Here they are:\n```\n{body}\n```\nDone.", f"结果如下：```json\n{body}"]))
    structures, report = P.parse(texts, preset)
    assert structures == golds and report["parse_failures"] == 0


# ---------------------------------------------------------------------------------------
# Failures: what each parser makes of them, the report, strict mode (hand-derived from the
# repositories' code paths)


def test_asqp_failures_become_empty_quads():
    texts = [
        "food quality is great because pizza is good [SSEP] nonsense",  # second piece: no " because "
        "",  # ABSA-QUAD splits "" into one piece "", which fails: one empty quad
        "service is bad because it is slow because x",  # three parts on " because "
        "a is b is c because d is e",  # " is " splits the first half in three
        "FOOD is ok because It is fine",  # "It" is the implicit aspect, any case
        "a is b because c is d because e is f",  # three halves, each readable alone
    ]
    structures, report = P.parse(texts, "asqp_paraphrase")
    empty = ["", "", "", ""]
    assert structures == [[["pizza", "good", "food quality", "great"], empty], [empty], [empty], [empty], [["NULL", "fine", "FOOD", "ok"]], [empty]]
    assert report == {"parser": "asqp_paraphrase@1", "parse_failures": 5, "parse_failure_examples": [0, 1, 2, 3, 5]}
    with pytest.raises(ValueError, match=r"predictions\[0\]: asqp_paraphrase@1 cannot read it: piece 2 'nonsense' is not"):
        P.parse(texts, "asqp_paraphrase", strict=True)


def test_report_lists_the_first_five_failures():
    texts = ["x"] * 3 + ["c is s because a is o"] + ["y"] * 10
    _, report = P.parse(texts, "asqp_paraphrase")
    assert report["parse_failures"] == 13 and report["parse_failure_examples"] == [0, 1, 2, 4, 5]


def test_mvp_fills_missing_markers_with_null_and_reports_them():
    structures, report = P.parse(["[A] pizza [S] great", "[O]good [A] it [C] x [S] y [A] z", "[A] a [O] b [C] c [S] d"], "mvp")
    # missing [C] and [O] are appended as " [C] null [O] null"; a value starts 4 characters
    # after its marker, so "[O]good" loses its "g"; the first [A] counts; "it" is "null".
    assert structures == [[["pizza", "null", "null", "great"]], [["null", "ood", "x", "y [A] z"]], [["a", "b", "c", "d"]]]
    assert report["parse_failures"] == 1 and report["parse_failure_examples"] == [0]
    with pytest.raises(ValueError, match=r"predictions\[0\]: mvp@1 cannot read it: piece 1 '\[A\] pizza \[S\] great' lacks \[C\] \[O\]"):
        P.parse(["[A] pizza [S] great"], "mvp", strict=True)


def test_gas_failures():
    texts = ["(a, b, positive); (c, d)", "NONE", "none", "", "(x, y, z)"]
    structures, report = P.parse(texts, "gas_aste")
    # only UABSA reads "none" as no tuples; elsewhere "none" is one piece "on" of one element
    assert structures == [[["a", "b", "positive"], ["", "", ""]], [["", "", ""]], [["", "", ""]], [["", "", ""]], [["x", "y", "z"]]]
    assert report["parse_failure_examples"] == [0, 1, 2, 3]
    assert P.parse(["NONE", "None", " none"], "gas_uabsa")[0] == [[], [], [["", ""]]]


def test_mvp_llm_failures_and_documented_choices():
    texts = [
        "[('pizza', 'good', 'food quality', 'positive'), ['a', 'b', 'c', 'd'], ('x', None, 'y', 'z')]",
        "Sure! [('a', 'b', 'c', 'd')]",  # not a literal: no quads, as MvP
        "'just a string'",  # MvP would count 13 characters; our choice: no quads
        "{'a': 1}",
        "[]",
        "(('a', 'b', 'c'),)",  # a tuple of tuples; the wrong width stays (malformed in quad_match)
    ]
    structures, report = P.parse(texts, "mvp_llm")
    empty = ["", "", "", ""]
    assert structures == [[["pizza", "good", "food quality", "positive"], empty, empty], [], [], [], [], [["a", "b", "c"]]]
    assert report["parse_failures"] == 4 and report["parse_failure_examples"] == [0, 1, 2, 3]


def test_llm_json_failures():
    texts = [
        '[{"target": "pizza", "opinion": null, "aspect": "food", "polarity": "positive"}, {"target": "a", "opinion": "b", "aspect": "c"}]',
        '```json\n[{"target": 1, "opinion": "b", "aspect": "c", "polarity": "d"}, "x", {"target": "a", "opinion": "b", "aspect": null, "polarity": "d"}]\n```',
        '{"target": "a", "opinion": "b", "aspect": "c", "polarity": "d"}',  # an object, not a list
        "```json\n[{\"target\": \"a\",",  # cut off
        "[]",
        '```[{"target": "a", "opinion": "b", "aspect": "c", "polarity": "d"}]``` and more',  # one line
    ]
    structures, report = P.parse(texts, "llm_json")
    empty = ["", "", "", ""]
    assert structures == [[["pizza", None, "food", "positive"], empty], [empty, empty, empty], [], [], [], [["a", "b", "c", "d"]]]
    assert report["parse_failures"] == 4
    with pytest.raises(ValueError, match=r"predictions\[0\]: llm_json@1 cannot read it: item 2 lacks the key 'polarity'"):
        P.parse(texts, "llm_json", strict=True)


# ---------------------------------------------------------------------------------------
# The structures are what quad_match.compute takes


def test_parsed_quads_scored_by_quad_match():
    references = ["food quality is great because pizza is good [SSEP] service general is bad because it is slow", "ambience general is ok because place is fine"]
    predictions = ["food quality is great because pizza is good [SSEP] garbage", "ambience general is ok because place is fine [SSEP] ambience general is ok because place is fine"]
    parser = P.get_parser("asqp_paraphrase")
    refs, ref_report = P.parse(references, parser, argument="references")
    preds, report = P.parse(predictions, parser)
    assert ref_report["parse_failures"] == 0 and report["parse_failure_examples"] == [0]
    # ABSA-QUAD's list rule: hits pizza quad and both duplicate place quads, so TP 3 of
    # 4 predictions (the unreadable piece counts) and 3 gold: P 3/4, R 3/3 (> its P), F1 6/7.
    listed = compute(preds, refs, tuple_len=parser.tuple_len, duplicates="list", similarity="exact")
    assert listed["exact_precision"] == pytest.approx(3 / 4) and listed["exact_recall"] == pytest.approx(1.0)
    assert listed["exact_f1"] == pytest.approx(6 / 7)
    # one-to-one: 2 hits of 4 predictions and 3 gold: P 1/2, R 2/3, F1 4/7
    multiset = compute(preds, refs, tuple_len=parser.tuple_len, similarity="exact")
    assert multiset["exact_f1"] == pytest.approx(4 / 7)


# ---------------------------------------------------------------------------------------
# CSC replies (our conventions, hand-derived cases)


def test_csc_names_resolve_to_the_newest_version_and_the_older_stays():
    for name in ("csc_label", "csc_first_line", "csc_quotes", "csc_reply", "cllm_reply"):
        assert P.parser_id(P.get_parser(name)) == f"{name}@2" and P.get_parser(f"{name}@1").version == 1
    assert P.CSC_PARSERS == ["cllm_reply", "csc_first_line", "csc_label", "csc_quotes", "csc_reply", "pycorrector_gpt", "simple_csc_line"]


def test_csc_wrappers_one_by_one_version_1():
    assert P.parse(["修改后：我很好。", "纠正后的句子 : 我很好。", "CORRECTED:\n我很好。", "我很好。修改后：", "修改后：", "答案是：好"], "csc_label@1")[0] == [
        "我很好。", "我很好。", "我很好。", "我很好。修改后：", "", "答案是：好",
    ]  # only a leading label, with its colon; "答案是" is not one
    assert P.parse(["\n 我很好。 \n解释：……", "我很好。", " \n "], "csc_first_line@1") == (
        ["我很好。", "我很好。", ""], {"parser": "csc_first_line@1", "parse_failures": 1, "parse_failure_examples": [2]})
    assert P.parse(["“我很好。”", " 「我很好。」 ", "“我很好。", '"a"', "“”", "“a”“b”"], "csc_quotes@1")[0] == [
        "我很好。", "我很好。", "“我很好。", "a", "", "a”“b",
    ]  # one pair around the whole text only (the last keeps its inner quotes)


def test_csc_wrappers_one_by_one():
    # version 2: the one wrapping each names, then a bare one-line sentence, else "" and counted
    assert P.parse(["修改后：我很好。", "纠正后的句子 : 我很好。", "CORRECTED:\n我很好。", "我很好。修改后：", "修改后：", "答案是：好", "**修改后：**我很好。", "修改后：我很好。\n解释：……", "修改后：“我很好。”"], "csc_label") == (
        ["我很好。", "我很好。", "我很好。", "", "", "好", "我很好。", "", ""], {"parser": "csc_label@2", "parse_failures": 4, "parse_failure_examples": [3, 4, 7, 8]},
    )  # a label after the sentence, or alone; an explanation left (a second line); quotes left (csc_reply reads those)
    assert P.parse(["\n 我很好。 \n解释：……", "我很好。", " \n ", "好的，以下是修改后的句子：\n我很好。", "我很好。\n我也很好。", "修改后：我很好。"], "csc_first_line") == (
        ["我很好。", "我很好。", "", "", "", ""], {"parser": "csc_first_line@2", "parse_failures": 4, "parse_failure_examples": [2, 3, 4, 5]},
    )  # blank; a preamble line; a second line that is no note; a label
    assert P.parse(["“我很好。”", " 「我很好。」 ", "“我很好。", '"a"', "“”", "“a”“b”", "“我很好。”\n解释"], "csc_quotes")[0] == [
        "我很好。", "我很好。", "“我很好。", "a", "", "a”“b", "",
    ]


def test_csc_reply_and_scoring():
    replies = ["修改后：“我今天很高兴。”\n解释：“搞”应为“高”。", "纠正后的句子:\n\n「他去学校。」", "修改后：\n"]
    sentences, report = P.parse(replies, "csc_reply")
    assert sentences == ["我今天很高兴。", "他去学校。", ""] and report["parse_failure_examples"] == [2]
    with pytest.raises(ValueError, match=r"predictions\[2\]: csc_reply@2 cannot read it: the label '修改后：' is followed by no sentence"):
        P.parse(replies, "csc_reply", strict=True)
    with pytest.raises(ValueError, match=r"predictions\[2\]: csc_reply@1 cannot read it: nothing is left once the label is removed"):
        P.parse(replies, "csc_reply@1", strict=True)
    from paperscore.csc_common import compute as csc

    # both read sentences equal their references: the one with an edit is a true positive
    result = csc(predictions=sentences[:2], references=["我今天很高兴。", "他去学校。"], sources=["我今天很搞兴。", "他去学校。"])
    assert result["sentence_correction_f1"] == 1.0


# Reply styles (tests/data/parse/csc_reply_styles.json): each a template around a sentence
# ({sentence}, and {source}, {wrong} -> {right} for the first character the gold corrects),
# read: whether a sentence is to be read from it, or the reply is a counted failure.
STYLES = json.loads((DATA / "parse" / "csc_reply_styles.json").read_text(encoding="utf-8"))
V2_PARSERS = ("csc_reply@2", "csc_label@2", "csc_first_line@2", "csc_quotes@2")


def sighan15_pairs():
    """SIGHAN15's 1,100 test sentences (traditional) and their gold corrections."""
    from paperscore import csc
    from paperscore.core import read_lines

    _, sources = csc.parse_test_input(read_lines(DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt", "input"), "input")
    _, gold = csc.parse_label_lines(read_lines(DATA / "sighan15" / "SIGHAN15_CSC_TestTruth.txt", "truth"), "truth")
    return sources, csc.apply_edits(sources, gold)


def render(style, sentence, source, gold):
    """A style's reply around `sentence` (its explanation names the first corrected character)."""
    wrong, right = next(((a, b) for a, b in zip(source, gold) if a != b), ("的", "得"))
    values = {"sentence_json": json.dumps(sentence, ensure_ascii=False)[1:-1], "sentence": sentence, "source": source, "wrong": wrong, "right": right}
    return re.sub(r"\{(sentence_json|sentence|source|wrong|right)\}", lambda m: values[m.group(1)], style["reply"])


def test_the_styles_are_the_corpus_the_parsers_are_built_on():
    assert len(STYLES) >= 50 and len({s["style"] for s in STYLES}) == len(STYLES)
    assert sum(not s["read"] for s in STYLES) >= 8 and all(s["note"] for s in STYLES)


@pytest.mark.parametrize("style", STYLES, ids=[s["style"] for s in STYLES])
def test_csc_reply_reads_each_style(style):
    """csc_reply@2 reads the sentence of every style (a failure style: "" and counted, a
    ValueError under strict); every one-wrapping parser is right or counts a failure; and
    right corrections in the style score F1 1 (csc_reply@1 gave 0.0 in 39 of the styles)."""
    from paperscore.csc_common import compute

    sources, gold = sighan15_pairs()
    picked = [i for i in range(0, 1100, 11) if sources[i] != gold[i]][:40]  # 40 erroneous sentences, corrected right
    replies = [render(style, gold[i], sources[i], gold[i]) for i in picked]
    for name in V2_PARSERS:
        sentences, report = P.parse(replies, name)
        for k, sentence in enumerate(sentences):
            right = gold[picked[k]]
            if name == "csc_reply@2":
                assert sentence == (right if style["read"] else ""), replies[k]
            else:  # a one-wrapping parser: right, or a counted failure (read as "")
                assert sentence in (right, ""), (name, replies[k])
        assert report["parse_failures"] == sentences.count("")
    if not style["read"]:
        with pytest.raises(ValueError, match=r"predictions\[0\]: csc_reply@2 cannot read it: "):
            P.parse(replies, "csc_reply", strict=True)
        return
    result = compute(replies, [gold[i] for i in picked], [sources[i] for i in picked], parse="csc_reply", strict=True)
    assert result["sentence_correction_f1"] == 1.0 and result["parse_failures"] == 0


def reply_corpus_v2(n, seed):
    """n replies over every style around SIGHAN15 sentences that fix, keep, half-fix or
    break the source (one in five its gold, repeats), with the oracle: each reply's sentence,
    or None for a reply no sentence can be read from."""
    rng = random.Random(seed)
    sources, gold = sighan15_pairs()
    rows = []
    for _ in range(n):
        if rows and rng.random() < 0.05:
            rows.append(rows[rng.randrange(len(rows))])
            continue
        i = rng.randrange(len(sources))
        s, g = sources[i], gold[i]
        sentence = rng.choice([g, g, s, "".join(rng.choice([a, b]) for a, b in zip(s, g)), g[:-1] + "了"])
        style = rng.choice(STYLES)
        rows.append((s, g, render(style, sentence, s, g), sentence if style["read"] else None))
    return [list(column) for column in zip(*rows)]


def test_csc_reply_at_users_sizes_against_the_known_sentences():
    from paperscore import csc_common

    sources, gold, replies, known = reply_corpus_v2(3000, 11)
    failed = [i for i, sentence in enumerate(known) if sentence is None]
    assert 300 < len(failed) < 1000 and len(set(replies)) > 2000
    sentences, report = P.parse(replies, "csc_reply")
    assert sentences == [sentence or "" for sentence in known]
    assert report == {"parser": "csc_reply@2", "parse_failures": len(failed), "parse_failure_examples": failed[:5]}
    for variant in ("realise", "simple_csc"):
        options = dict(variant=variant, length_mismatch="align") if variant == "realise" else dict(variant=variant)
        expected = csc_common.compute([sentence or "" for sentence in known], gold, sources, **options)
        assert csc_common.compute(replies, gold, sources, parse="csc_reply", **options) == {**expected, "parse_failures": len(failed), "parse_failure_examples": failed[:5]}
    # version 1 on the same replies: wrong sentences, none counted but the blank ones
    old, old_report = P.parse(replies, "csc_reply@1")
    wrong = [i for i, sentence in enumerate(known) if sentence is not None and old[i] != sentence]
    assert len(wrong) > 1000 and old_report["parse_failures"] < len(failed) / 4


# The CSC parsers equal to a repository's code: its outputs on 150 replies each (null: the
# code stops on an assertion; ours gives "" and reports it), tests/data/parse/README.md.
CSC_REPLIES = json.loads((DATA / "parse" / "csc_replies.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CSC_REPLIES))
def test_csc_parser_agrees_with_the_repository_code(name):
    cases = CSC_REPLIES[name]
    parser = P.get_parser(f"{name}@1")
    assert len(cases) == 150 and parser.source.split("@")[0] in ("ktlKTL/C-LLM", "shibing624/pycorrector", "Jacob-Zhou/simple-csc")
    sentences, report = P.parse([case["text"] for case in cases], parser)
    for case, sentence in zip(cases, sentences):
        assert sentence == (case["repository_output"] or ""), case["text"]
    # a failure is reported exactly where the code asserts or leaves nothing but white space
    blank = [i for i, case in enumerate(cases) if not (case["repository_output"] or "").strip()]
    assert report["parse_failures"] == len(blank) > 0 and report["parse_failure_examples"] == blank[:5]


def test_csc_repository_parsers_by_hand():
    # C-LLM's process_txt (cllm_reply@1): after the first "纠错后的句子：" (unstripped,
    # explanation kept); else the first line; a reply starting with a line end loses that one line end only
    assert P.parse(["纠错后的句子：我很好。\n解释", "我很好。\n解释：无", "\n我很好。\n解释", "修改后：我很好。", ""], "cllm_reply@1") == (
        ["我很好。\n解释", "我很好。", "我很好。\n解释", "修改后：我很好。", ""], {"parser": "cllm_reply@1", "parse_failures": 1, "parse_failure_examples": [4]})
    # pycorrector: stripped; an empty think block first removes every such block
    assert P.parse([" <think>\n\n</think>\n\n我很好。", "我<think>\n\n</think>很好", "<think>想</think>我"], "pycorrector_gpt")[0] == [
        "我很好。", "我<think>\n\n</think>很好", "<think>想</think>我"]
    # simple-csc: stripped, line ends made spaces
    assert P.parse([" 我很好。\n解释\n"], "simple_csc_line")[0] == ["我很好。 解释"]


def test_cllm_reply_reads_what_cherrant_reads_by_hand():
    # C-LLM writes `id<TAB>source<TAB>prediction` lines; ChERRANT reads each line back in text
    # mode, splits on tabs and removes all white space from the prediction. The explanation's
    # line has no tab: ChERRANT stops on it (IndexError), so the reply is counted. A lone "\r"
    # at the end joins the file's "\n" into one line end; "\r\n" after the label leaves an
    # empty line (without the label, process_txt cuts at the "\n" first).
    replies = ["纠错后的句子：我 很\u3000好 。\n解释：无", "纠错后的句子： 我很好。 ", "我很好。\r\n", "纠错后的句子：我很好。\r\n", "纠错后的句子：我\t很好", "纠错后的句子：没有错误", " \u3000", ""]
    sentences, report = P.parse(replies, "cllm_reply")
    assert sentences == ["我很好。", "我很好。", "我很好。", "我很好。", "我", "没有错误", "", ""]
    assert report == {"parser": "cllm_reply@2", "parse_failures": 6, "parse_failure_examples": [0, 3, 4, 5, 6]}


# C-LLM's pipeline run in place (tests/data/parse/README.md): per reply, the sentences
# ChERRANT's parallel_to_m2.py read from its line, and whether the pipeline stopped.
CLLM_CHERRANT = json.loads((DATA / "parse" / "cllm_cherrant.json").read_text(encoding="utf-8"))


def cllm_expected(case):
    """(sentence, failed) the fixture gives: the first sentence ChERRANT read ("" if none),
    failed where it stopped, read a second sentence (a tab), or read no edit (NO_EDIT)."""
    targets = case["targets"]
    sentence = targets[0] if targets else ""
    return sentence, case["stops"] or len(targets) != 1 or sentence in P.NO_EDIT


def test_cllm_reply_agrees_with_c_llm_and_cherrant_run_in_place():
    cases = CLLM_CHERRANT
    assert len(cases) >= 300 and sum(case["stops"] for case in cases) >= 30
    sentences, report = P.parse([case["text"] for case in cases], "cllm_reply")
    expected = [cllm_expected(case) for case in cases]
    assert sentences == [sentence for sentence, _ in expected]
    failed = [i for i, (_, bad) in enumerate(expected) if bad]
    assert report["parse_failures"] == len(failed) and report["parse_failure_examples"] == failed[:5]


def cllm_replies(n, seed):
    """Replies as C-LLM's fine-tuned model and chat models under its few-shot label write
    them around SIGHAN15 sentences: the label or none, an explanation after a line end now
    and then, white space of the kinds models emit (spaces around punctuation and Latin
    letters, U+3000, U+00A0, tabs, CR LF), "没有错误", empty replies."""
    rng = random.Random(seed)
    sources, gold = sighan15_pairs()
    spaces = [" "] * 6 + ["  ", "\u3000", "\xa0", "\t"]
    replies = []
    for _ in range(n):
        i = rng.randrange(len(sources))
        sentence = rng.choice([gold[i], gold[i], sources[i]])
        if rng.random() < 0.3:  # white space inside the sentence
            chars = list(sentence)
            for _ in range(rng.randint(1, 3)):
                chars.insert(rng.randint(0, len(chars)), rng.choice(spaces))
            sentence = "".join(chars)
        label = rng.choice(["纠错后的句子：", "纠错后的句子：", "纠错后的句子： ", "", "\n"])
        after = rng.choice(["", "", "", "", "", "\n", "\r\n", " ", "\n解释：“搞”应为“高”。", "\n\n修改说明：无", "\r"])
        reply = label + sentence + after
        replies.append(rng.choice([reply] * 20 + ["纠错后的句子：没有错误", "", "纠错后的句子："]))
    return replies


def cherrant_oracle(reply, folder):
    """(sentence, failed) of one reply by C-LLM's steps done plainly: process_txt's cut, the
    line written with "\\n" into a file between two others and read back in text mode, split
    on tabs, white space removed; failed where ChERRANT would stop or read otherwise."""
    if not reply:
        return "", True
    w = reply.find("纠错后的句子：")
    cut = reply[w + 7 :] if w != -1 else (reply[: reply.find("\n")] if reply.find("\n") > 0 else reply[1:] if reply.startswith("\n") else reply)
    path = folder / "src_pred.txt"
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"1\t甲\t甲\n2\t乙\t{cut}\n3\t丙\t丙\n")
    with open(path, encoding="utf-8") as f:
        lines = f.read().strip().split("\n")
    fields = lines[1].split("\t")[2:]
    sentence = "".join(fields[0].strip().split())
    return sentence, len(lines) != 3 or len(fields) != 1 or not sentence or sentence in ("没有错误", "无法标注")


def test_cllm_reply_at_users_sizes_against_a_plain_oracle(tmp_path):
    replies = cllm_replies(2000, 3)
    expected = [cherrant_oracle(reply, tmp_path) for reply in replies]
    sentences, report = P.parse(replies, "cllm_reply")
    assert sentences == [sentence for sentence, _ in expected]
    failed = [i for i, (_, bad) in enumerate(expected) if bad]
    assert report["parse_failures"] == len(failed) and report["parse_failure_examples"] == failed[:5]
    # version 1 kept the explanation's line and every space: a sentence ChERRANT never scores
    old, _ = P.parse(replies, "cllm_reply@1")
    assert sum(o != s for o, (s, bad) in zip(old, expected) if not bad) > 200 and sum("\n" in o for o in old) > 150


def gold_sentences(n, seed):
    """Random gold sentences: Chinese characters, full-width punctuation, ASCII letters and
    digits; none blank, none with a line end or white space at its ends."""
    rng = random.Random(seed)
    chars = "我你他们的是在有不了人这中大为上个国到说时要就出会也子后以生年得作地于家成学下对起过能很好高兴今天" + "，。！？、；（）《》…abcXYZ019"
    return ["".join(rng.choice(chars) for _ in range(rng.randint(1, 40))) for _ in range(n)]


# Each parser, the wrappers its source writes around a sentence (the repositories': C-LLM's
# few-shot label, Qwen3's empty think block, a generated line end).
WRAPPERS = {
    "csc_label": lambda s, rng: rng.choice(["修改后：", "修改后的句子: ", "纠正后的句子：\n", "输出：", "Corrected: ", "ANSWER:"]) + s,
    "csc_first_line": lambda s, rng: rng.choice(["", "\n", " \n\n"]) + s + rng.choice(["", "\n解释：“搞”应为“高”。", "\r\n\n(no errors)"]),
    "csc_quotes": lambda s, rng: rng.choice(["", " "]) + s.join(rng.choice(P.QUOTES)) + rng.choice(["", " \n"]),
    "csc_reply": lambda s, rng: rng.choice(["", "修改后："]) + rng.choice(["", "\n"]) + s.join(rng.choice(P.QUOTES)) + rng.choice(["", "\n解释：……"]),
    "cllm_reply": lambda s, rng: rng.choice(["纠错后的句子：" + s, s + "\n解释：……", "\n" + s, s]),
    "pycorrector_gpt": lambda s, rng: rng.choice(["", "<think>\n\n</think>\n\n", " "]) + s + rng.choice(["", "\n", " "]),
    "simple_csc_line": lambda s, rng: rng.choice(["", " ", "\n"]) + s + rng.choice(["", "\n"]),
}


@pytest.mark.parametrize("name", [f"{name}@1" for name in sorted(WRAPPERS) if name not in ("pycorrector_gpt", "simple_csc_line")] + sorted(set(WRAPPERS) - {"cllm_reply"}))
def test_csc_round_trip(name):
    rng = random.Random(name)
    gold = gold_sentences(2000, 5)
    sentences, report = P.parse([WRAPPERS[name.split("@")[0]](s, rng) for s in gold], name)
    assert sentences == gold and report["parse_failures"] == 0


def test_csc_strict_names_the_example():
    replies = ["修改后：我很好。", "  \n", "纠错后的句子："]
    for name, index in (("csc_reply", 1), ("csc_reply@1", 1), ("pycorrector_gpt", 1), ("simple_csc_line", 1), ("cllm_reply", 1), ("cllm_reply@1", 1)):
        with pytest.raises(ValueError, match=rf"predictions\[{index}\]: {P.parser_id(P.get_parser(name))} cannot read it: "):
            P.parse(replies, name, strict=True)
    assert P.parse(replies[:1], "csc_reply", strict=True) == (["我很好。"], {"parser": "csc_reply@2", "parse_failures": 0, "parse_failure_examples": []})


# ---------------------------------------------------------------------------------------
# CSC replies at every entry point: csc_common and csc_sighan, package, Space, CLI

SOURCES = ["我今天很搞兴。", "他门去学校了。", "今天很热。"]
GOLD = ["我今天很高兴。", "他们去学校了。", "今天很热。"]
REPLIES = ["修改后：“我今天很高兴。”\n解释：“搞”应为“高”。", "纠正后的句子：他们去学校了。", "修改后："]
# csc_reply reads 我今天很高兴。, 他们去学校了。 and "" (nothing left: reported, index 2).
# Under length_mismatch="align" that "" deletes the 5 characters of a clean sentence: a
# false positive; the other two make exactly the gold edits. TP 2, FP 1, FN 0, TN 0:
# FPR 1/1; accuracy (TP+TN)/N 2/3; P 2/3, R 2/2, F1 2PR/(P+R) = 0.8, at both levels.
PARSED = {"parse_failures": 1, "parse_failure_examples": [2]}
SIGHAN_EXPECTED = {
    "false_positive_rate": 1.0, **{f"{level}_{key}": value for level in ("detection", "correction") for key, value in (("accuracy", 2 / 3), ("precision", 2 / 3), ("recall", 1.0), ("f1", 0.8))}, **PARSED,
}  # fmt: skip
# ReaLiSe's sentence level: P = TP / sentences with an edit 2/3, R = TP / gold-positive 2/2, accuracy 2/3.
REALISE_EXPECTED = {f"sentence_{level}_{key}": value for level in ("detection", "correction") for key, value in (("accuracy", 2 / 3), ("precision", 2 / 3), ("recall", 1.0), ("f1", 0.8))}


def test_csc_computes_read_replies_hand_derivation():
    from paperscore import csc_common, csc_sighan

    result = csc_sighan.compute(REPLIES, GOLD, SOURCES, parse="csc_reply", length_mismatch="align", return_signature=True)
    assert result.pop("signature").startswith("csc_sighan|parse:csc_reply@2|version:2015|")
    assert result == pytest.approx(SIGHAN_EXPECTED, abs=1e-12)
    result = csc_common.compute(REPLIES, GOLD, SOURCES, parse="csc_reply", length_mismatch="align", return_signature=True)
    assert result.pop("signature").startswith("csc_common|parse:csc_reply@2|variant:realise|")
    assert {key: result[key] for key in (*REALISE_EXPECTED, *PARSED)} == pytest.approx({**REALISE_EXPECTED, **PARSED}, abs=1e-12)
    # without parse: no report, no parser in the signature
    plain = csc_common.compute(GOLD, GOLD, SOURCES, return_signature=True)
    assert "parse_failures" not in plain and "parse" not in plain["signature"]


def test_csc_parse_refuses_what_it_cannot_do():
    from paperscore import csc_common, csc_sighan

    for compute in (csc_common.compute, csc_sighan.compute):
        with pytest.raises(ValueError, match=r"predictions\[2\]: csc_reply@2 cannot read it: the label '修改后：' is followed by no sentence"):
            compute(REPLIES, GOLD, SOURCES, parse="csc_reply", strict=True, length_mismatch="align")
        with pytest.raises(ValueError, match="strict: applies to model texts read by a parser; pass parse=NAME"):
            compute(GOLD, GOLD, SOURCES, strict=True)
        with pytest.raises(ValueError, match="strict: expected True or False, got str"):
            compute(REPLIES, GOLD, SOURCES, parse="csc_reply", strict="yes")
        with pytest.raises(ValueError, match="parse: unknown parser 'mvp' for csc; known: cllm_reply@1"):
            compute(REPLIES, GOLD, SOURCES, parse="mvp")
        with pytest.raises(ValueError, match="parse: csc_reply@2 reads a corrector's replies, which are sentences: pass sources"):
            compute(["1, 0"], ["1, 0"], parse="csc_reply")


def reply_corpus(n, seed):
    """Replies as chat correctors write them around sentences that fix, miss or break the
    source's errors (many distinct sentences, repeats, empty and blank replies, long and
    short ones), with their sources and gold sentences."""
    rng = random.Random(seed)
    pool = "我你他们的是在有不了人这中大为上个国到说时要就出会也子后以生年得作地于家成学下对起过能很好高兴今天，。！？"
    sources, gold, replies = [], [], []
    for _ in range(n):
        if sources and rng.random() < 0.05:  # a repeat
            k = rng.randrange(len(sources))
            sources.append(sources[k]), gold.append(gold[k]), replies.append(replies[k])
            continue
        target = "".join(rng.choice(pool) for _ in range(rng.choice([1, 3, 8, 15, 30, 60])))
        source = "".join(rng.choice(pool) if rng.random() < 0.08 else c for c in target)
        sentence = rng.choice([target, source, source, "".join(rng.choice(pool) if rng.random() < 0.1 else c for c in target), target[:-1], target + "了"])
        wrapped = WRAPPERS["csc_reply"](sentence, rng)
        reply = rng.choice([wrapped, wrapped, wrapped, sentence, "修改后：", "", " \n ", "修改后：\n“" + sentence + "”\n\n解释：……", wrapped[: rng.randint(0, len(wrapped))]])
        sources.append(source), gold.append(target), replies.append(reply)
    return sources, gold, replies


def test_csc_parse_equals_each_reply_read_alone_at_users_sizes():
    from paperscore import csc_common, csc_sighan

    sources, gold, replies = reply_corpus(10_000, 7)
    sentences, failed = naive_parse(replies, P.read_csc_reply)
    assert 300 < len(failed) < 5000 and len(set(replies)) > 5000
    report = {"parse_failures": len(failed), "parse_failure_examples": failed[:5]}
    for compute, options in ((csc_sighan.compute, dict(length_mismatch="align")), (csc_common.compute, dict(variant="realise", length_mismatch="align"))):
        expected = compute(sentences, gold, sources, **options)
        assert compute(replies, gold, sources, parse="csc_reply", **options) == {**expected, **report}
    # each sample alone reports its own failure and counts as in the batch
    batch = csc_sighan.compute(replies, gold, sources, parse="csc_reply", length_mismatch="align", per_sentence=True)
    for index in range(30):
        alone = csc_sighan.compute(replies[index : index + 1], gold[index : index + 1], sources[index : index + 1], parse="csc_reply", length_mismatch="align", per_sentence=True)
        assert alone["parse_failures"] == (index in failed)
        for key in ("detection_classes", "correction_classes", "predicted_edits"):
            assert alone[key] == batch[key][index : index + 1], (index, key)


@pytest.mark.parametrize("variant", ["simple_csc", "msllm", "cllm", "pycorrector", "all"])
def test_csc_parse_composes_with_every_preset(variant):
    """parse reads first; then the preset's own normalisation and length rule, as for sentences."""
    from paperscore import csc_common

    sources, gold, replies = reply_corpus(400, 8)
    sentences, failed = naive_parse(replies, P.read_csc_reply)
    options = {} if variant in ("simple_csc", "msllm", "cllm") else dict(length_mismatch="align")
    expected = csc_common.compute(sentences, gold, sources, variant=variant, **options)
    result = csc_common.compute(replies, gold, sources, variant=variant, parse="csc_reply", return_signature=True, **options)
    assert result.pop("signature").startswith(f"csc_common|parse:csc_reply@2|variant:{variant}|")
    assert result == {**expected, "parse_failures": len(failed), "parse_failure_examples": failed[:5]}


@pytest.fixture(scope="module")
def csc_spaces():
    import evaluate

    return {space: evaluate.load(str(SPACES_DIR / space), keep_in_memory=True) for space in ("csc_common", "csc_sighan")}


def test_csc_parse_through_the_spaces_compute_add_batch_and_trainer_metrics(csc_spaces):
    expected = {"csc_sighan": SIGHAN_EXPECTED, "csc_common": {**REALISE_EXPECTED, **PARSED}}
    for space, metric in csc_spaces.items():
        result = metric.compute(predictions=REPLIES, references=GOLD, sources=SOURCES, parse="csc_reply", length_mismatch="align", return_signature=True)
        assert result.pop("signature").startswith(f"{space}|parse:csc_reply@2|")
        assert {key: result[key] for key in expected[space]} == pytest.approx(expected[space], abs=1e-12)
        for reply, gold, source in zip(REPLIES, GOLD, SOURCES):
            metric.add_batch(predictions=[reply], references=[gold], sources=[source])
        batched = metric.compute(parse="csc_reply", length_mismatch="align")
        assert {key: batched[key] for key in expected[space]} == pytest.approx(expected[space], abs=1e-12)
        with pytest.raises(ValueError, match=r"predictions\[2\]: csc_reply@2 cannot read it"):
            metric.compute(predictions=REPLIES, references=GOLD, sources=SOURCES, parse="csc_reply", strict=True, length_mismatch="align")
        with pytest.raises(ValueError, match="parse: unknown parser 'nope' for csc"):
            metric.trainer_metrics(parse="nope")


def test_csc_parse_on_the_command_line(tmp_path, capsys):
    from paperscore import cli

    def run(argv):
        code = cli.main(argv)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    replies, json_replies = tmp_path / "replies.txt", tmp_path / "replies.json"
    replies.write_text("\n".join(reply.split("\n")[0] for reply in REPLIES) + "\n", encoding="utf-8")  # one line each
    json_replies.write_text(json.dumps(REPLIES, ensure_ascii=False), encoding="utf-8")  # over several lines
    pairs, sources, gold = tmp_path / "gold.tsv", tmp_path / "src.txt", tmp_path / "tgt.txt"
    pairs.write_text("".join(f"{s}\t{g}\n" for s, g in zip(SOURCES, GOLD)), encoding="utf-8")
    sources.write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    gold.write_text("\n".join(GOLD) + "\n", encoding="utf-8")
    for path, extra in ((replies, []), (json_replies, ["--replies-format", "json"])):
        code, out, _ = run(["sighan", "--sources", str(sources), "--predictions", str(path), "--references", str(gold), "--parse", "csc_reply", "--length-mismatch", "align", "--json", *extra])
        result = json.loads(out)
        assert code == 0 and result.pop("signature").startswith("csc_sighan|parse:csc_reply@2|")
        assert {key: result[key] for key in SIGHAN_EXPECTED} == pytest.approx(SIGHAN_EXPECTED, abs=1e-12)
        code, out, _ = run(["csc", "--predictions", str(path), "--references", str(pairs), "--parse", "csc_reply", "--length-mismatch", "align", "--json", *extra])
        result = json.loads(out)
        assert code == 0 and result.pop("signature").startswith("csc_common|parse:csc_reply@2|")
        assert {key: result[key] for key in (*REALISE_EXPECTED, *PARSED)} == pytest.approx({**REALISE_EXPECTED, **PARSED}, abs=1e-12)
    # the jar's report lists the sentences read (TP 2 of 3 flagged)
    report = tmp_path / "report.txt"
    code, _, _ = run(["sighan", "--sources", str(sources), "--predictions", str(replies), "--references", str(gold), "--parse", "csc_reply", "--length-mismatch", "align", "-o", str(report)])
    assert code == 0 and "\tPrecision = 0.6667 (2/3)\n" in report.read_text(encoding="utf-8")
    code, _, err = run(["csc", "--predictions", str(replies), "--references", str(pairs), "--parse", "csc_reply", "--strict", "--length-mismatch", "align"])
    assert code == 1 and "predictions[2]: csc_reply@2 cannot read it" in err
    for flags in (["--strict"], ["--replies-format", "json"]):
        code, _, err = run(["csc", "--predictions", str(replies), "--references", str(pairs), *flags])
        assert code == 1 and f"{flags[0]}: applies with --parse NAME only" in err
    code, _, err = run(["csc", "--predictions", str(replies), "--references", str(gold), "--parse", "csc_reply"])
    assert code == 1 and "pass sources" in err
    bad = tmp_path / "bad.json"
    bad.write_text('["a", 3]', encoding="utf-8")
    code, _, err = run(["sighan", "--sources", str(sources), "--predictions", str(bad), "--references", str(gold), "--parse", "csc_reply", "--replies-format", "json"])
    assert code == 1 and "reply 2 is a JSON int, not a string" in err


def test_csc_readme_example_prints_what_the_readme_shows(capsys):
    """The README's `$ paperscore csc ... --parse csc_reply` block, run: the same lines."""
    import shlex

    from conftest import ROOT

    from paperscore import cli

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```text\n(.*?)```", readme, re.S) if b.startswith("$ paperscore csc ") and "--parse" in b)
    command, shown = block.split("\n", 1)
    with open(ROOT / "tests/data/csc_common/chat_replies.json", encoding="utf-8") as handle:
        assert json.load(handle) == REPLIES  # the figures derived above
    assert [line.split("\t") for line in (ROOT / "tests/data/csc_common/chat_gold.tsv").read_text(encoding="utf-8").splitlines()] == [list(pair) for pair in zip(SOURCES, GOLD)]
    argv = [str(ROOT / arg) if arg.startswith("tests/") else arg for arg in shlex.split(command)[2:]]
    assert cli.main(argv) == 0
    assert capsys.readouterr().out == shown


@pytest.mark.parametrize("space", ["csc_common", "csc_sighan"])
def test_csc_demos_score_replies_with_a_chosen_parser(space):
    import gradio as gr
    from conftest import load_app

    app = load_app(space)
    assert app.PARSERS == [app.NO_PARSER, *P.CSC_PARSERS]
    # the page's generative example is this module's REPLIES, one a line (its explanation left out)
    assert app.REPLY_EXAMPLE["predictions"].split("\n") == [REPLIES[0].split("\n")[0], *REPLIES[1:]]
    assert app.REPLY_EXAMPLE["sources"].split("\n") == SOURCES and app.REPLY_EXAMPLE["references"].split("\n") == GOLD
    chosen = {"variant": "realise"} if space == "csc_common" else {}
    headline, _, table = app.score(**{**app.EXAMPLE, **app.REPLY_EXAMPLE, **chosen})
    assert headline.pop("signature").startswith(f"{space}|parse:csc_reply@2|")
    expected = {**REALISE_EXPECTED, **PARSED} if space == "csc_common" else SIGHAN_EXPECTED
    assert {key: headline[key] for key in expected} == pytest.approx(expected, abs=1e-12)
    assert "去学校了。" in table and "修" not in table and "纠" not in table  # the table shows the sentences read
    # the page reports the third reply (index 2, nothing left once its label is removed) counted from 1
    assert '<p id="parse-report">Parse failures: 1 (sentence 3)</p>' in app.show(**{**app.EXAMPLE, **app.REPLY_EXAMPLE, **chosen})[3]
    with pytest.raises(gr.Error, match="parse: 'nope' is not one of"):
        app.score(**{**app.EXAMPLE, "parse": "nope"})


# ---------------------------------------------------------------------------------------
# Event detection: OmniEvent's seq2seq triggers and their candidates

OMNIEVENT = json.loads((DATA / "parse" / "omnievent_s2s.json").read_text(encoding="utf-8"))


def test_omnievent_reading_agrees_with_extract_argument():
    cases = OMNIEVENT["texts"]
    pairs, report = P.parse([case["text"] for case in cases], "omnievent_s2s")
    assert pairs == [case["repository_output"] for case in cases]
    assert 0.2 * len(cases) < report["parse_failures"] < 0.8 * len(cases)


def test_omnievent_candidates_agree_with_get_trigger_detection_s2s():
    cases = OMNIEVENT["candidates"]
    for case in cases:  # each example alone, then all in one call
        alone = P.omnievent_candidates([case["pairs"]], [case["text"]], [case["positions"]], [case["labels"]], case["types"])
        assert alone == [case["repository_output"]], case
    same_types = [case for case in cases if set(case["types"]) == set(cases[0]["types"])]
    assert P.omnievent_candidates(*([c[key] for c in same_types] for key in ("pairs", "text", "positions", "labels")), cases[0]["types"]) == [
        c["repository_output"] for c in same_types
    ]


def test_omnievent_by_hand_and_scored():
    text = "troops fired and fired again ; two died"
    reply = "<extra_id_0> attack: fired <extra_id_1><extra_id_0> attack : fired<extra_id_1><extra_id_0> die: two died <extra_id_1> junk</s><pad>"
    (pairs,), report = P.parse([reply], "omnievent_s2s")
    # "junk" is no "type: trigger" piece (skipped, reported); "two died" loses its space
    assert pairs == [["fired", "attack"], ["fired", "attack"], ["twodied", "die"]] and report["parse_failures"] == 1
    positions = [[7, 12], [17, 22], [35, 39], [0, 6]]  # fired, fired, died, troops
    gold = ["attack", "attack", "die", "NA"]
    predicted = P.omnievent_candidates([pairs], [text], [positions], [gold], ["attack", "die"])[0]
    # each "fired" consumes one attack pair; "died" matches no pair ("twodied"); troops none
    assert predicted == ["attack", "attack", "NA", "NA"]
    from paperscore.micro_macro import compute as micro_macro

    # NA left out: 2 hits of 2 predicted, 3 gold events: P 1, R 2/3, F1 0.8
    result = micro_macro(predicted, gold, negative_labels=["NA"])
    assert result["micro_precision"] == 1.0 and result["micro_recall"] == pytest.approx(2 / 3) and result["micro_f1"] == pytest.approx(0.8)
    assert [P.plain_label(label) for label in ("Conflict.Attack", "Life.Be-Born", "Movement.Transport_Person", "NA")] == ["attack", "beborn", "transportperson", "NA"]


def test_omnievent_candidates_refuse_bad_input():
    with pytest.raises(ValueError, match="types: 'attack' is a string; give a list of type names"):
        P.omnievent_candidates([[]], ["a"], [[]], [[]], "attack")
    with pytest.raises(ValueError, match="texts: 2 examples, but 1 parsed predictions"):
        P.omnievent_candidates([[]], ["a", "b"], [[]], [[]], ["x"])
    with pytest.raises(ValueError, match=r"labels\[0\]: 1 labels for 2 candidates"):
        P.omnievent_candidates([[]], ["ab"], [[[0, 1], [1, 2]]], [["x"]], ["x"])
    with pytest.raises(ValueError, match=r"positions\[0\]\[1\]: \(1, 3\) is not inside the text of 2 characters"):
        P.omnievent_candidates([[]], ["ab"], [[[0, 1], [1, 3]]], [["x", "NA"]], ["x"])


# ---------------------------------------------------------------------------------------
# ACOS's generative baseline (GEN-SCL-NAT) and DiaASQ's triplets as JSON (issue 21)

GEN_SCL_NAT = json.loads((DATA / "parse" / "gen_scl_nat.json").read_text(encoding="utf-8"))


def test_gen_scl_nat_agrees_with_its_repository_function():
    """The agreed outputs of jpeper/GEN_SCL_NAT's extract_spans_para run in place on 23,000
    rendered, mutated and random texts (tests/parse_reference_gen_scl_nat.py), as its
    (category, aspect, sentiment, opinion) tuples."""
    assert len(GEN_SCL_NAT) >= 200
    structures, report = P.parse([case["text"] for case in GEN_SCL_NAT], "gen_scl_nat")
    for case, structure in zip(GEN_SCL_NAT, structures):
        assert [[c, a, s, o] for a, o, c, s in structure] == case["repository_output"], case["text"]
    assert 0.2 * len(GEN_SCL_NAT) < report["parse_failures"] < 0.8 * len(GEN_SCL_NAT)


def test_gen_scl_nat_round_trip():
    # GEN-SCL-NAT generate_data.get_gen_scl_nat_data: per quad the tokens [category,
    # "| THE", aspect ("it" for NULL), "IS", opinion, "|", sentiment], "[SSEP]" between
    # quads, all joined by spaces. Its decoder keeps "it" (see read_gen_scl_nat).
    rng = random.Random(8)
    golds = [gold(rng, ["positive", "negative", "neutral"], "it") for _ in range(500)]
    texts = [" [SSEP] ".join(" ".join([c, "| THE", t, "IS", o, "|", s]) for t, o, c, s in g) for g in golds]
    assert P.parse(texts, "gen_scl_nat") == (golds, {"parser": "gen_scl_nat@1", "parse_failures": 0, "parse_failure_examples": []})


def test_gen_scl_nat_failures_and_its_pipe_form():
    # hand-derived from its code: "" has no quads, a blank text one unreadable piece
    # (category "", aspect NULL, sentiment "", opinion NULL); four "|" fields are read as
    # category, aspect, opinion, sentiment before the THE/IS form is tried
    structures, report = P.parse(["", " ", "c | a | o | positive", "c| THEaIS o |x", "c | THE a IS o", "c | the a is o | positive"], "gen_scl_nat")
    unread = [["NULL", "NULL", "", ""]]
    assert structures == [[], unread, [["a", "o", "c", "positive"]], [["a", "o", "c", "x"]], unread, unread]
    assert report["parse_failure_examples"] == [1, 4, 5]
    # scored: the unreadable piece is a predicted quad that matches nothing
    r = compute(["c | THE a IS o | positive [SSEP] junk"], ["c | THE a IS o | positive"], parse="gen_scl_nat")
    assert (r["exact_precision"], r["exact_recall"], r["parse_failures"]) == (0.5, 1.0, 1)


def test_diaasq_json_round_trip_in_its_prediction_files_layout():
    """Random DiaASQ dialogues' triplets written as DiaASQ's save2file writes them (a JSON
    list of [t_s, t_e, a_s, a_e, o_s, o_e, polarity, target, aspect, opinion]), bare, in a
    fenced block or as a dialogue object, read back to the quads quad_match reads from
    DiaASQ's files (tests/diaasq.py), and scored the same as those files."""
    import diaasq

    rng = random.Random(9)
    dialogues = [diaasq.random_dialogue(rng, str(i)) for i in range(400)]
    for t in (t for d in dialogues for t in d["triplets"] if t[6] == ""):
        t[6] = "neu"  # an empty polarity would be a malformed gold quad, refused by quad_match
    texts = []
    for d in dialogues:
        body = json.dumps(d["triplets"], ensure_ascii=rng.random() < 0.5)
        texts.append(rng.choice([body, f"```json\n{body}\n```", json.dumps({"doc_id": d["doc_id"], "triplets": d["triplets"]})]))
    expected = [[[q or "NULL" for q in diaasq.quad(t)[:3]] + [t[6]] for t in d["triplets"] if t[6] != -1] for d in dialogues]
    structures, report = P.parse(texts, "diaasq_json")
    assert sum(map(len, expected)) > 800 and sum(t[6] == -1 for d in dialogues for t in d["triplets"]) > 50
    assert report["parse_failures"] == 0
    assert structures == expected
    quads = [[dict(zip(("target", "opinion", "aspect", "polarity"), q)) for q in e] for e in expected]
    assert compute(texts, quads, parse="diaasq_json", parse_references=False) == compute(quads, quads) | {"parse_failures": 0, "parse_failure_examples": []}


def test_diaasq_json_failures():
    structures, report = P.parse(["not json", '{"doc_id": 1}', '[[0, 1, 2, 3, 4, 5, "pos", "t", "a"], 7, [0, 1, 2, 3, 4, 5, 1, "t", "a", "o"]]', "[]"], "diaasq_json")
    assert structures == [[], [], [["", "", "", ""]] * 3, []]
    assert report["parse_failure_examples"] == [0, 1, 2]


def test_new_quad_parsers_are_in_the_package_list_the_demo_reads():
    from paperscore.quad import QUAD_PARSERS

    assert {"gen_scl_nat", "diaasq_json"} <= set(QUAD_PARSERS)


def test_strict_offset_policy_by_hand():
    text = "set up fired fired ; set up"
    positions = [[13, 18], [7, 12], [0, 6], [21, 27], [0, 3]]  # fired@13, fired@7, "set up"@0, "set up"@21, set
    gold = ["attack", "attack", "NA", "transport", "NA"]
    pairs = [["fired", "die"], ["setup", "transport"], ["fired", "attack"], ["fired", "attack"], ["troops", "attack"], ["set", "elect"]]
    ((predicted, left),) = P.place_triggers("strict", [pairs], [text], [positions], [gold], None)
    # in text order the candidates are set@0-3, "set up"@0-6, fired@7, fired@13, "set up"@21:
    # (fired, die) takes fired@7, (setup, transport) "set up"@0 (spaces removed, as the
    # reader removes them), (fired, attack) fired@13, the second (fired, attack) finds no
    # free "fired", (troops, attack) no candidate, (set, elect) set@0-3 (a type outside
    # any schema is still the model's answer); the gold labels are never read
    assert predicted == ["attack", "die", "transport", "NA", "elect"]
    assert left == [("fired", "attack"), ("troops", "attack")]
    # OmniEvent's rule on the same input prefers the gold label and skips types outside
    # the schema: fired@13 attack (gold preferred over die), fired@7 attack, "set up" never
    # equals "setup", set: elect is not a type
    ((predicted, left),) = P.place_triggers("omnievent", [pairs], [text], [positions], [gold], ["attack", "die", "transport"])
    assert predicted == ["attack", "attack", "NA", "NA", "NA"]
    assert left == [("fired", "die"), ("setup", "transport"), ("troops", "attack"), ("set", "elect")]
