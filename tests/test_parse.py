"""parse: the registry; each decoder against its repository's own outputs (fixtures from a
differential run of the repository's function in place, tests/data/parse/README.md); gold
structures rendered with the repository's target template and read back; failure reports,
strict mode, and the structures scored by quad_match."""

import json
import random

import pytest
from conftest import DATA

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
        assert set(parser.tuple_len) <= set("0123") if parser.family == "quad_match" else parser.family in ("csc", "micro_macro", "rationale_f1") and parser.tuple_len is None
    with pytest.raises(ValueError, match=r"unknown parser 'mvp' for csc; known: csc_first_line@1, csc_label@1, csc_quotes@1, csc_reply@1$"):
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


def test_csc_wrappers_one_by_one():
    assert P.parse(["修改后：我很好。", "纠正后的句子 : 我很好。", "CORRECTED:\n我很好。", "我很好。修改后：", "修改后：", "答案是：好"], "csc_label")[0] == [
        "我很好。", "我很好。", "我很好。", "我很好。修改后：", "", "答案是：好",
    ]  # only a leading label, with its colon; "答案是" is not one
    assert P.parse(["\n 我很好。 \n解释：……", "我很好。", " \n "], "csc_first_line") == (
        ["我很好。", "我很好。", ""], {"parser": "csc_first_line@1", "parse_failures": 1, "parse_failure_examples": [2]})
    assert P.parse(["“我很好。”", " 「我很好。」 ", "“我很好。", '"a"', "“”", "“a”“b”"], "csc_quotes")[0] == [
        "我很好。", "我很好。", "“我很好。", "a", "", "a”“b",
    ]  # one pair around the whole text only (the last keeps its inner quotes)


def test_csc_reply_and_scoring():
    replies = ["修改后：“我今天很高兴。”\n解释：“搞”应为“高”。", "纠正后的句子:\n\n「他去学校。」", "修改后：\n"]
    sentences, report = P.parse(replies, "csc_reply")
    assert sentences == ["我今天很高兴。", "他去学校。", ""] and report["parse_failure_examples"] == [2]
    with pytest.raises(ValueError, match=r"predictions\[2\]: csc_reply@1 cannot read it: nothing is left once the label is removed"):
        P.parse(replies, "csc_reply", strict=True)
    from paperscore.csc_common import compute as csc

    # both read sentences equal their references: the one with an edit is a true positive
    result = csc(predictions=sentences[:2], references=["我今天很高兴。", "他去学校。"], sources=["我今天很搞兴。", "他去学校。"])
    assert result["sentence_correction_f1"] == 1.0


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
