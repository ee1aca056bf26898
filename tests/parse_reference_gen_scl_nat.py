"""Runs GEN-SCL-NAT's own decoder (jpeper/GEN_SCL_NAT source/eval_utils.extract_spans_para,
task "gen_scl_nat") in place on rendered, mutated and random model texts, checks that
paperscore's `gen_scl_nat` parser reads every one the same, and writes a diverse sample of
the agreed pairs to tests/data/parse/gen_scl_nat.json. A test-only script; the decoder is
never copied here (the repository carries no licence file: only its outputs are kept):

    git clone https://github.com/jpeper/GEN_SCL_NAT /tmp/quad23-refs/GEN_SCL_NAT   # e9ee190
    pip install --target /tmp/quad23-refs/pylib parse==1.19.0   # its environment.yml's pin
    PYTHONPATH=/tmp/quad23-refs/pylib python tests/parse_reference_gen_scl_nat.py /tmp/quad23-refs/GEN_SCL_NAT
"""

import contextlib
import io
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent / "shared"))
from paperscore.parse import read_gen_scl_nat  # noqa: E402

OUT = ROOT / "data" / "parse" / "gen_scl_nat.json"
EN = "food pizza service staff wine place price great bad good the very not it is THE IS".split()
ZH = list("服务很好菜品味道不错价格贵环境安静")
CATEGORIES = ["the food quality", "the service", "the restaurant", "the laptop design", "价格"]
SENTIMENTS = ["positive", "negative", "neutral"]
NOISE = ["|", " | ", "| THE", " THE ", "IS", " IS ", "[SSEP]", " [SSEP] ", "it", "NULL", " ", "  ", "\t", "\n", "服务", "(", ")", ",", "The", "is"]


def element(rng):
    if rng.random() < 0.3:
        return "".join(rng.choice(ZH) for _ in range(rng.randint(1, 4)))
    return " ".join(rng.choice(EN[:13]) for _ in range(rng.randint(1, 3)))


def rendered(rng):
    """GEN-SCL-NAT's target (generate_data.get_gen_scl_nat_data): per quad the tokens
    [category, "| THE", aspect ("it" if implicit), "IS", opinion ("NULL" if implicit), "|",
    sentiment], "[SSEP]" between quads, joined by spaces."""
    pieces = []
    for _ in range(rng.randint(1, 4)):
        aspect = "it" if rng.random() < 0.2 else element(rng)
        opinion = "NULL" if rng.random() < 0.15 else element(rng)
        pieces.append(" ".join([rng.choice(CATEGORIES), "| THE", aspect, "IS", opinion, "|", rng.choice(SENTIMENTS)]))
    return " [SSEP] ".join(pieces)


def mutated(rng):
    text = rendered(rng)
    for _ in range(rng.randint(1, 4)):
        u, at = rng.random(), rng.randrange(len(text) + 1)
        if u < 0.35:
            text = text[:at] + text[at + rng.randint(1, 6) :]
        elif u < 0.5:
            text = text[:at]
        else:
            text = text[:at] + rng.choice(NOISE) + text[at:]
    return text


def soup(rng):
    return "".join(rng.choice(NOISE + EN + ZH) + rng.choice(["", " "]) for _ in range(rng.randrange(12)))


def texts(seed, count):
    rng = random.Random(seed)
    return [(rng.choice([rendered, mutated, mutated, soup]) if rng.random() < 0.97 else lambda r: r.choice(["", " ", "\n", "[SSEP]"]))(rng) for _ in range(count)]


def main(repository):
    sys.path.insert(0, str(Path(repository) / "source"))
    import eval_utils  # needs the `parse` package; torch is not imported by this module

    def theirs(text):
        with contextlib.redirect_stdout(io.StringIO()):  # it prints every piece it cannot read
            return [list(quad) for quad in eval_utils.extract_spans_para("gen_scl_nat", text, "pred")]

    kept = []
    for seed, count in ((0, 3000), (1, 10_000), (2, 10_000)):
        disagreements = 0
        for index, text in enumerate(texts(seed, count)):
            output = theirs(text)
            ours = [[c, a, s, o] for a, o, c, s in read_gen_scl_nat(text)[0]]  # back to its (ac, at, sp, ot)
            if ours != output:
                disagreements += 1
                print("DISAGREE", repr(text), output, ours)
            elif seed == 1 and index % 37 == 0 and len(text) <= 160:  # a spread of seed 1's agreed texts
                kept.append({"text": text, "repository_output": output})
        print(f"seed {seed}: {count} texts, {disagreements} disagreements")
    OUT.write_text("[\n" + ",\n".join(json.dumps(case, ensure_ascii=False) for case in kept) + "\n]\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(kept)} cases")


if __name__ == "__main__":
    main(sys.argv[1])
