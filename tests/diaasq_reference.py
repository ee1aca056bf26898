"""Runs DiaASQ's own scorer (unikcc/DiaASQ src/run_eval.py, MIT) in place on the released
test sets and on random dialogues, and writes its figures to
tests/data/quad_match/diaasq_reference.json, which test_quad_match.py checks
quad_match's convention="diaasq" against. A test-only script; the scorer is never copied
into this repository:

    git clone https://github.com/unikcc/DiaASQ /tmp/quad23-refs/DiaASQ   # commit a7e3e35
    python tests/diaasq_reference.py /tmp/quad23-refs/DiaASQ

Each corpus goes through Template.forward, which calls compute_score for its 13 rows; the
figures are recorded unrounded (forward prints them to 2 places). DiaASQ's code cannot
read a prediction without its element and pair lists (KeyError), so for the corpora that
give triplets alone it gets empty lists; only its quad rows are compared there.
"""

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import diaasq

SEED, DIALOGUES = 2023, 4000
OUT = diaasq.DATA / "diaasq_reference.json"


def released_predictions(gold, seed):
    """The predictions scored on each released test set: gold itself; its explicit quads
    only (what DiaASQ's span-based baseline can output); random near misses."""
    rng = random.Random(seed)
    explicit = [dict(diaasq.with_pairs(g), triplets=[t for t in g["triplets"] if -1 not in t[:6]]) for g in gold]
    return {"gold": [diaasq.with_pairs(g) for g in gold], "explicit": explicit, "nudged": [diaasq.random_prediction(rng, g) for g in gold]}


def table(template_class, gold, predictions):
    """The 13 (P, R, F1) rows of DiaASQ's Template.forward on these files."""
    lists = ("targets", "aspects", "opinions", "ta", "to", "ao")
    predictions = [{**{k: [] for k in lists}, **p} for p in predictions]
    with tempfile.TemporaryDirectory() as scratch:
        paths = [Path(scratch) / name for name in ("pred.json", "gold.json")]
        for path, data in zip(paths, (predictions, gold)):
            path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        scores = []

        class Recording(template_class):
            def compute_score(self, mode="quad"):
                scores.append(super().compute_score(mode))
                return scores[-1]

        Recording(type("Args", (), {"pred_file": str(paths[0]), "gold_file": str(paths[1])})).forward()
    return scores


def main(repository):
    repository = Path(repository)
    sys.path.insert(0, str(repository / "src"))
    import run_eval

    commit = subprocess.run(["git", "-C", str(repository), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip() or "a7e3e35b07ca618f8e72d0e59b2ee38e860e45ac"
    out = {"repository": "unikcc/DiaASQ", "commit": commit, "file": "src/run_eval.py", "released": {}, "random": {"seed": SEED, "dialogues": DIALOGUES, "corpora": []}}
    for seed, language in enumerate(("zh", "en")):
        gold = diaasq.released(language)
        out["released"][language] = {name: table(run_eval.Template, gold, p) for name, p in released_predictions(gold, seed).items()}
    for gold, predictions in diaasq.random_corpora(SEED, DIALOGUES):
        lists = "ta" in predictions[0]
        out["random"]["corpora"].append({"lists": lists, "scores": table(run_eval.Template, gold, predictions)})
    OUT.write_text(json.dumps(out, indent=None) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(out['random']['corpora'])} random corpora")


if __name__ == "__main__":
    main(sys.argv[1])
