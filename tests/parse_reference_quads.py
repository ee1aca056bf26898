"""Runs the quad decoders and scorers of the repositories paperscore's quad parsers restate,
in place, on rendered, mutated, adversarial and random model texts, and checks paperscore
against them two ways: each text's tuples (parse.parse), and each corpus's exact precision,
recall and F1 (quad.compute(parse=..., similarity="exact") with the repository's counting
of duplicates). Writes what the repositories give on a sample of the agreed cases to
tests/data/parse/ (quad_scores.json, gas_fixed.json, and the "dlo" cases of
quad_decoders.json). A test-only script: no repository code is copied here, only run.

    for r in IsakZhang/ABSA-QUAD IsakZhang/Generative-ABSA ZubinGou/multi-view-prompting \\
             hmt2014/AspectQuad jpeper/GEN_SCL_NAT; do git clone https://github.com/$r /tmp/pref/${r/\\//+}; done
    pip install --target /tmp/pref/pylib parse==1.19.0 editdistance==0.8.1
    PYTHONPATH=/tmp/pref/pylib python tests/parse_reference_quads.py /tmp/pref

Commits: ABSA-QUAD ce4d4a5, Generative-ABSA 8f4671b, multi-view-prompting 549a2b7,
AspectQuad b3c801f, GEN_SCL_NAT e9ee190 (each the repository's head when run).
"""

import contextlib
import importlib.util
import io
import itertools
import json
import random
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent / "shared"))
from paperscore import parse as P  # noqa: E402
from paperscore.quad import compute  # noqa: E402

OUT = ROOT / "data" / "parse"
WORDS = "pizza service staff wine place price food menu bar waiter sushi view dessert coffee".split()
OPINIONS = "great bad good delicious slow rude friendly cheap expensive tasty cold fresh very not".split()
ZH = list("服务很好菜品味道不错价格贵环境安静")
CATEGORIES = ["food quality", "service general", "restaurant general", "ambience general", "food prices", "drinks quality"]
SENTIMENTS = ["positive", "negative", "neutral"]
WORD_OF = {"positive": "great", "negative": "bad", "neutral": "ok"}  # ABSA-QUAD's sentiment words
FILLER = "the a was and it is we very so really".split()


def stub(*names):
    """Modules a decoder's file imports but its decoding and scoring never use."""
    for name in names:
        module = types.ModuleType(name)
        module.__path__ = []
        module.__getattr__ = lambda attribute: type(attribute, (), {})
        sys.modules[name] = module


def load(path, name, folder):
    """The module at `path`, imported under `name` with its folder first on sys.path."""
    sys.path.insert(0, str(folder))
    for cached in ("data_utils", "eval_utils"):
        sys.modules.pop(cached, None)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.path.remove(str(folder))
    return module


def quiet(function, *args):
    with contextlib.redirect_stdout(io.StringIO()):
        return function(*args)


# ---------------------------------------------------------------------------------------
# Gold tuples and the texts each repository's target template makes of them


def term(rng):
    if rng.random() < 0.2:
        return "".join(rng.choice(ZH) for _ in range(rng.randint(1, 3)))
    return " ".join(rng.choice(WORDS if rng.random() < 0.7 else OPINIONS) for _ in range(rng.randint(1, 2)))


def gold_quads(rng, implicit=True):
    """(aspect term or NULL, opinion term, category, sentiment), distinct, 1-3 of them."""
    quads = []
    for _ in range(rng.randint(1, 3)):
        quad = ("NULL" if implicit and rng.random() < 0.25 else term(rng), " ".join(rng.choice(OPINIONS) for _ in range(rng.randint(1, 2))), rng.choice(CATEGORIES), rng.choice(SENTIMENTS))
        if quad not in quads:
            quads.append(quad)
    return quads


def shuffled(rng, pairs):
    pairs = list(pairs)
    rng.shuffle(pairs)
    return " ".join(f"{marker} {value}" for marker, value in pairs)


def it(aspect):
    return "it" if aspect == "NULL" else aspect


TEMPLATES = {  # parser name -> (gold quads -> target text); ABSA-QUAD, MvP, DLO, GEN-SCL-NAT, GAS extraction
    "asqp_paraphrase": lambda rng, q: " [SSEP] ".join(f"{c} is {WORD_OF[s]} because {it(a)} is {o}" for a, o, c, s in q),
    "asqp_paraphrase_aste": lambda rng, q: " [SSEP] ".join(f"It is {WORD_OF[s]} because {a} is {o}" for a, o, c, s in q),
    "asqp_paraphrase_tasd": lambda rng, q: " [SSEP] ".join(f"{c} is {WORD_OF[s]} because {it(a)} is {WORD_OF[s]}" for a, o, c, s in q),
    "mvp": lambda rng, q: " [SSEP] ".join(shuffled(rng, [("[A]", it(a)), ("[O]", o), ("[C]", c), ("[S]", WORD_OF[s])]) for a, o, c, s in q),
    "dlo": lambda rng, q: " [SSEP] ".join(shuffled(rng, [("[AT]", it(a)), ("[OT]", o), ("[AC]", c), ("[SP]", WORD_OF[s])]) for a, o, c, s in q),
    "gen_scl_nat": lambda rng, q: " [SSEP] ".join(f"{c} | THE {it(a)} IS {o} | {s}" for a, o, c, s in q),
    "gas_uabsa": lambda rng, q: "; ".join(f"({a}, {s})" for a, o, c, s in q),
    "gas_aope": lambda rng, q: "; ".join(f"({a}, {o})" for a, o, c, s in q),
    "gas_aste": lambda rng, q: "; ".join(f"({a}, {o}, {s})" for a, o, c, s in q),
    "gas_tasd": lambda rng, q: "; ".join(f"({a}, {c}, {s})" for a, o, c, s in q),
}
IMPLICIT = {"asqp_paraphrase", "asqp_paraphrase_tasd", "mvp", "dlo", "gen_scl_nat", "gas_tasd"}  # tasks with implicit aspects
ANNOTATED = {  # GAS annotation: (gold quad -> the bracket that replaces its aspect term in the sentence)
    "gas_annotation_uabsa": lambda a, o, c, s: f"[{a}|{s}]",
    "gas_annotation_aope": lambda a, o, c, s: f"[{a}|{o}]",
    "gas_annotation_aste": lambda a, o, c, s: f"[{a}|{s}|{o}]",
    "gas_annotation_tasd": lambda a, o, c, s: f"[{a}|{c}|{s}]",
}


def sentence_and_target(rng, name, quads):
    """(the input sentence's words, the gold target text). Each aspect term and opinion term
    is in the sentence; GAS's annotated target is the sentence with each aspect term replaced
    by its bracket."""
    words, annotated = [], []
    for quad in quads:
        filler = [rng.choice(FILLER) for _ in range(rng.randint(0, 2))]
        aspect = [] if quad[0] == "NULL" else quad[0].split(" ")
        words += filler + aspect + quad[1].split(" ")
        annotated += filler + ([ANNOTATED[name](*quad)] if name in ANNOTATED and aspect else aspect) + quad[1].split(" ")
    words.append(".")
    annotated.append(".")
    return words, (" ".join(annotated) if name in ANNOTATED else TEMPLATES[name](rng, quads))


NOISE = ["[SSEP]", " [SSEP] ", "[", "]", "|", " | ", "(", ")", ", ", "; ", " is ", " because ", "It is ", "[A]", "[O]", "[AT]", "[OT]", "[AC]", "[SP]",
         "| THE", " THE ", "IS", " IS ", "it", "NULL", "null", "None", "  ", " ", "\n", "positve", "negtive", "服务", "great", "x"]  # fmt: skip


def mutated(rng, text, quads):
    """A model's text: the gold copied, with 0-3 edits: a term blanked (the double space
    where "it" or a word was), a term or a sentiment or category misspelt, a piece dropped
    or repeated, a cut, an inserted separator or marker."""
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        u = rng.random()
        quad = rng.choice(quads)
        if u < 0.2:  # blank a term where the text writes it
            target = rng.choice([w for w in (it(quad[0]), quad[0], quad[1]) if w and w in text] or ["x"])
            text = text.replace(target, "", 1)
        elif u < 0.4:  # misspell a term, a sentiment, a category
            target = rng.choice([quad[0], quad[1], quad[2], quad[3]])
            if target in text and len(target) > 2:
                k = rng.randrange(len(target))
                wrong = target[:k] + rng.choice(["", "x", target[k] * 2, "e"]) + target[k + 1 :]
                text = text.replace(target, wrong, 1)
        elif u < 0.55:
            pieces = text.split(rng.choice([" [SSEP] ", "; "]))
            if len(pieces) > 1:
                pieces.pop(rng.randrange(len(pieces))) if rng.random() < 0.5 else pieces.append(rng.choice(pieces))
            text = (" [SSEP] " if "[SSEP]" in text or "[A]" in text else "; ").join(pieces)
        elif u < 0.65:
            text = text[: rng.randrange(len(text) + 1)]
        else:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(NOISE) + text[at:]
    return text


def soup(rng):
    return "".join(rng.choice(NOISE + WORDS + ZH) + rng.choice(["", " "]) for _ in range(rng.randrange(12)))


def adversarial(rng):
    """Texts that made the regular expressions scan quadratically (GAS's \\[.*?\\], the
    `parse` patterns), kept short enough for the repositories' own code."""
    n = rng.randint(1, 300)
    return rng.choice(["[" * n, "[a|b" * n + "]", "a| THE" + "IS" * n, "|" * n, "| THE" * n + "x", "[" * n + "\n]" * n, "a|b|" + "c" * n, "(" * n + ")"])


# ---------------------------------------------------------------------------------------
# The repositories' functions


class Repositories:
    def __init__(self, folder):
        folder = Path(folder)
        stub("torch", "torch.utils", "torch.utils.data", "transformers", "t5_score")
        self.absa = load(folder / "IsakZhang+ABSA-QUAD/eval_utils.py", "absa_quad_eval", folder / "IsakZhang+ABSA-QUAD")
        self.gas = load(folder / "IsakZhang+Generative-ABSA/eval_utils.py", "gas_eval", folder / "IsakZhang+Generative-ABSA")
        self.mvp = load(folder / "ZubinGou+multi-view-prompting/src/eval_utils.py", "mvp_eval", folder / "ZubinGou+multi-view-prompting/src")
        self.dlo = load(folder / "hmt2014+AspectQuad/DLO/eval_utils.py", "dlo_eval", folder / "hmt2014+AspectQuad/DLO")
        self.gsn = load(folder / "jpeper+GEN_SCL_NAT/source/eval_utils.py", "gsn_eval", folder / "jpeper+GEN_SCL_NAT/source")

    def decode(self, name, text):
        """The repository's tuples for one text, in its own element order."""
        task = name.split("_")[-1]
        if name.startswith("asqp_paraphrase"):
            return quiet(self.absa.extract_spans_para, "asqp" if name == "asqp_paraphrase" else task, text, "pred")
        if name == "mvp":
            return quiet(self.mvp.extract_spans_para, text, "pred")
        if name == "dlo":
            return quiet(self.dlo.extract_spans_para, "asqp", text, "pred")
        if name == "gen_scl_nat":
            return quiet(self.gsn.extract_spans_para, "gen_scl_nat", text, "pred")
        if name.startswith("gas_annotation"):
            return self.gas.extract_spans_annotation(task, text)
        return self.gas.extract_spans_extraction(task, text)

    def scores(self, name, predictions, golds, sentences):
        """(raw precision, recall, F1; GAS's fixed ones or None), each in [0, 1], by the
        repository's own compute_f1_scores on its own decoding of every text."""
        pred = [self.decode(name, text) for text in predictions]
        gold = [self.decode(name, text) for text in golds]
        score = {"mvp": self.mvp, "dlo": self.dlo, "gen_scl_nat": self.gsn}.get(name, self.gas if name.startswith("gas") else self.absa)
        raw = quiet(score.compute_f1_scores, pred, gold)
        scale = 100 if name == "mvp" else 1
        fixed = None
        if name.startswith("gas"):
            try:
                fixed = quiet(score.compute_f1_scores, self.gas.fix_pred_with_editdistance(pred, sentences, name.split("_")[-1]), gold)
            except UnboundLocalError:  # GAS's ASTE fix meets a triplet without a sentiment word before any other
                fixed = "stops"
        figures = lambda s: [s["precision"] / scale, s["recall"] / scale, s["f1"] / scale]  # noqa: E731
        return figures(raw), (figures(fixed) if isinstance(fixed, dict) else fixed)

    def fixed_tuples(self, name, predictions, sentences):
        pred = [self.decode(name, text) for text in predictions]
        return [[list(t) for t in tuples] for tuples in self.gas.fix_pred_with_editdistance(pred, sentences, name.split("_")[-1])]


# Each repository tuple in quad.py's positions (tuple_len order): see tests/test_parse.py.
ORDER = {"asqp_paraphrase": (1, 3, 0, 2), "mvp": (1, 3, 0, 2), "dlo": (1, 3, 0, 2), "gen_scl_nat": (1, 3, 0, 2), "asqp_paraphrase_tasd": (1, 0, 2), "gas_annotation_aste": (0, 2, 1)}


def ours_expected(name, tuples):
    """The repository's tuples as paperscore's parser gives them: reordered, and any tuple
    with an empty target or opinion term, or white space at an end of an element (the
    repository compares both as they are), read as a malformed one (one element more: the
    tuple in JSON), which quad_match counts as a prediction that matches nothing."""
    tuple_len = P.get_parser(name).tuple_len
    out = []
    for item in tuples:
        item = [item[i] for i in ORDER[name.replace("_fixed", "")]] if name.replace("_fixed", "") in ORDER else list(item)
        literal = any(code in "01" and element == "" for code, element in zip(tuple_len, item)) or any(element != element.strip() for element in item)
        out.append([*item, json.dumps(item, ensure_ascii=False)] if literal and item != [""] * len(item) else item)
    return out


DUPLICATES = {"gen_scl_nat": "set"}  # GEN-SCL-NAT counts set(pred) and set(gold); the others each predicted tuple found in the gold list


def ours_scores(name, predictions, golds, sentences=None):
    result = compute(predictions, golds, parse=name, similarity="exact", duplicates=DUPLICATES.get(name, "list"), exact_only=True, sources=sentences)
    return [result["exact_precision"], result["exact_recall"], result["exact_f1"]]


def corpus(rng, name, size):
    """(predictions, gold texts, sentences) of `size` examples."""
    predictions, golds, sentences = [], [], []
    for _ in range(size):
        quads = gold_quads(rng, implicit=name.replace("gas_annotation", "").replace("_fixed", "") in IMPLICIT or name in IMPLICIT)
        words, gold = sentence_and_target(rng, name, quads)
        roll = rng.random()
        prediction = mutated(rng, gold, quads) if roll < 0.85 else soup(rng) if roll < 0.95 else adversarial(rng) if roll < 0.98 else ""
        predictions.append(prediction), golds.append(gold), sentences.append(words)
    return predictions, golds, sentences


def main(folder, seeds=(0, 1), corpora=1000, size=10):
    repositories = Repositories(folder)
    names = sorted({*TEMPLATES, *ANNOTATED})
    kept_scores, kept_fixed, kept_dlo, failures = [], [], [], 0
    for seed, name in itertools.product(seeds, names):
        rng = random.Random(f"{seed}-{name}")
        texts = per_text = scored = fixed_scored = stops = 0
        for number in range(corpora):
            predictions, golds, sentences = corpus(rng, name, size)
            for text in predictions + golds:  # each text's tuples
                texts += 1
                theirs = ours_expected(name, repositories.decode(name, text))
                ours = P.parse([text], name)[0][0]
                if ours != theirs:
                    per_text += 1
                    print("TEXT", name, repr(text), theirs, ours)
                elif name == "dlo" and seed == 0 and number % 7 == 0 and len(kept_dlo) < 150 and len(text) <= 160:
                    kept_dlo.append({"text": text, "repository_output": [list(t) for t in repositories.decode(name, text)]})
            raw, fixed = repositories.scores(name, predictions, golds, sentences)
            mine = ours_scores(name, predictions, golds)
            if any(abs(a - b) > 1e-12 for a, b in zip(raw, mine)):
                scored += 1
                print("SCORES", name, raw, mine, predictions, golds)
            elif seed == 0 and number < 12:
                kept_scores.append({"parser": name, "predictions": predictions, "references": golds, "repository": raw})
            if fixed is None:
                continue
            fixed_name = name + "_fixed"
            if fixed == "stops":  # ours keeps that triplet as read, reported
                stops += 1
                assert P.parse(predictions, fixed_name, sources=sentences)[1]["parse_failures"], predictions
                continue
            theirs = [ours_expected(fixed_name, t) for t in repositories.fixed_tuples(name, predictions, sentences)]
            ours = P.parse(predictions, fixed_name, sources=sentences)[0]
            mine = ours_scores(fixed_name, predictions, golds, sentences)
            if ours != theirs or any(abs(a - b) > 1e-12 for a, b in zip(fixed, mine)):
                fixed_scored += 1
                print("FIXED", name, fixed, mine, predictions, sentences, theirs, ours)
            elif seed == 0 and number < 6:
                kept_fixed.append({"parser": fixed_name, "predictions": predictions, "references": golds, "sources": [" ".join(s) for s in sentences], "repository_tuples": repositories.fixed_tuples(name, predictions, sentences), "repository": fixed})
        failures += per_text + scored + fixed_scored
        print(f"seed {seed} {name}: {texts} texts ({per_text} differ), {corpora} corpora of {size} ({scored} raw and {fixed_scored} fixed figures differ; {stops} corpora GAS's fix stops on)")
    if failures:
        print(f"{failures} disagreements: nothing written")
        return
    write(OUT / "quad_scores.json", kept_scores)
    write(OUT / "gas_fixed.json", kept_fixed)
    decoders = json.loads((OUT / "quad_decoders.json").read_text(encoding="utf-8"))
    decoders["dlo"] = kept_dlo
    (OUT / "quad_decoders.json").write_text("{\n" + ",\n".join(f"{json.dumps(key)}: [\n" + ",\n".join(json.dumps(case, ensure_ascii=False) for case in cases) + "\n]" for key, cases in decoders.items()) + "\n}\n", encoding="utf-8")
    print(f"wrote {len(kept_scores)} corpora to quad_scores.json, {len(kept_fixed)} to gas_fixed.json, {len(kept_dlo)} dlo texts")


def write(path, cases):
    path.write_text("[\n" + ",\n".join(json.dumps(case, ensure_ascii=False) for case in cases) + "\n]\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
