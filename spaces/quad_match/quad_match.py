"""quad_match: sentiment quads (target | opinion | aspect | polarity) scored by optimal soft
match, with ROUGE-L over CJK characters, and by the papers' exact-match P/R/F1."""

import datasets
import evaluate

# What the vendored package imports, named here for evaluate's dependency check at load time.
import numpy
import scipy.optimize

# evaluate copies only the sibling files this script imports: a line for each vendored module.
from .paperscore_core import VERSION, as_corpus
from .paperscore_family import Family
from .paperscore_parse import get_parser
from .paperscore_quad import ELEMENT_SEP, QUAD_SEP, QUAD_PARSERS, check_inputs, compute, has_spans, is_dialogues
from .paperscore_space import SpaceMetric, from_json, to_json
from .paperscore_trainer import trainer_metrics

_CITATION = """\
@misc{yuyijiong-quad-match-score,
    title = {quad\\_match\\_score: evaluating generated sentiment quads by optimal matching},
    author = {yuyijiong},
    howpublished = {Hugging Face Space yuyijiong/quad\\_match\\_score},
    year = {2023},
}
@inproceedings{zhang-etal-2021-aspect-sentiment,
    title = "Aspect Sentiment Quad Prediction as Paraphrase Generation",
    author = "Zhang, Wenxuan and Deng, Yang and Li, Xin and Yuan, Yifei and Bing, Lidong and Lam, Wai",
    booktitle = "Proceedings of EMNLP 2021",
    year = "2021",
    pages = "9209--9219",
}
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    pages = "74--81",
}
"""

_DESCRIPTION = """\
Scores generated sentiment quads (target | opinion | aspect | polarity) two ways. Optimal
soft match (the yuyijiong/quad_match_score Space): each pair of quads has a degree, the
weighted mean of its element similarities (ROUGE-L F1 for target and opinion, exact match
for aspect and polarity); the one-to-one assignment with the largest total is found with
the Hungarian algorithm, and a pair of degree d counts as d true positives. ROUGE-L runs on
CJK characters and letter/digit runs, so Chinese is scored (rouge-score's default
tokenizer scores every Chinese string 0). Exact match: the papers' P/R/F1, with ASQP's,
DiaASQ's or a one-to-one rule for duplicate quads.
"""

_KWARGS_DESCRIPTION = f"""
Args:
    predictions: one string per sample: quads joined by "{QUAD_SEP}", elements by "{ELEMENT_SEP}";
        or one list of quads per sample, each quad a list of strings in tuple_len order or an
        object with keys target, opinion, aspect, polarity (a null or empty target or
        opinion is implicit: "NULL").
    references: the same per sample, or a list of them (several references: the
        best-scoring one counts, ties to the first).
    weights: of target, opinion, aspect, polarity in a pair's degree (default (1, 1, 1, 1)).
    tuple_len: which elements the strings hold, in order: distinct digits of 0 target,
        1 opinion, 2 aspect, 3 polarity ("0123" default; "013", "12", "0", ...).
    parse: predictions (and references) are what a generative model writes, read by this
        parser: {", ".join(QUAD_PARSERS)}
        (tuple_len is the parser's). Adds parse_failures (how many predictions had a piece
        the parser could not read: a predicted quad that matches nothing, as in the
        parser's repository) and parse_failure_examples (their first 0-based indices).
    parse_references: references are model text too, read by the same parser strictly
        (default True); False: references are quads in the parser's order and spelling.
    strict: a prediction the parser cannot read is a ValueError.
    spans: "exclusive" or "inclusive": span-index quads (Span-ASTE, DiaASQ): each target and
        opinion a [start, end] pair of token indices, end exclusive or inclusive as named
        ([-1, -1] or null: implicit), compared exactly (with similarity="exact").
    convention: "diaasq": DiaASQ's own table (its run_eval.py): predictions and references
        are the dialogues of its prediction and gold files (objects with doc_id, triplets,
        ...), compared by token spans; keys <row>_precision/_recall/_f1 for its 13 rows
        (target, aspect, opinion, ta, to, ao, micro, iden, intra, inter, cross_1..3).
    sep_token1, sep_token2: the separators between quads and between elements.
    similarity: "rouge_l" (default) or "exact" (every element by exact match).
    duplicates: exact-match counting: "multiset" (one-to-one, default), "list" (ASQP, MvP,
        ACOS) or "set" (DiaASQ).
    exact_only: the exact-match figures alone, without the soft match (faster; same values).
    implicit_split: add ACOS's exact figures by implicit target / opinion (keys
        exact_precision_ea_eo, ..., exact_f1_ia_io).
    legacy_keys: add the original Space's three keys.
    details: add "samples": each sample's reference used, score and quad alignment.
    zero_division: the value of a 0/0 ratio: 0.0 (default), 1.0 or "nan".
    confidence_level, n_resamples, seed: add bootstrap "<key>_low" / "<key>_high".
    return_signature: add "signature", the reproducibility string.
Returns:
    optimal_precision, optimal_recall, optimal_f1, optimal_score (mean over samples of the
    matched total / max(n, m)), exact_precision, exact_recall, exact_f1: floats in [0, 1],
    except with duplicates="list", where repeated predicted quads can push exact recall and
    F1 past 1 (a warning names the samples; exact_repeated_hits counts those hits).
Examples:
    >>> metric = evaluate.load("paperscore/quad_match")
    >>> result = metric.compute(predictions=["food | good | food#taste | pos"],
    ...                         references=["food | good | food#taste | pos & service | bad | service#general | neg"])
    >>> print(round(result["exact_f1"], 4), round(result["optimal_f1"], 4), result["optimal_score"])
    0.6667 0.6667 0.5
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class QuadMatch(SpaceMetric, evaluate.Metric):
    parser_family = "quad_match"  # parse=NAME: one of its parsers (checked by trainer_metrics at once)
    def _info(self):
        # Every example travels as its JSON text (see check_batch): a quad string, or quads as
        # lists or objects, which no one datasets feature holds without coercing.
        text = datasets.Value("string")
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": text, "references": text}),
            homepage="https://huggingface.co/spaces/paperscore/quad_match",
            codebase_urls=["https://huggingface.co/spaces/yuyijiong/quad_match_score", "https://github.com/IsakZhang/ABSA-QUAD"],
            reference_urls=["https://github.com/google-research/google-research/tree/master/rouge", "https://github.com/unikcc/DiaASQ"],
        )

    # Presets for evaluate.load(..., config_name=NAME): the papers' rules for duplicate quads.
    configs = {
        "asqp": {"duplicates": "list"},
        "diaasq": {"duplicates": "set"},  # string quads, each counted once (kept as it always was)
        "diaasq_table": {"convention": "diaasq"},  # DiaASQ's own table from its dialogue files (run_eval.py)
        "original": {"legacy_keys": True},
    }

    def check_batch(self, columns):
        predictions, references = as_corpus(columns["predictions"], "predictions"), as_corpus(columns["references"], "references")
        if not is_dialogues(predictions, references) and not has_spans(predictions, references):  # compute(convention=..., spans=...) checks those
            check_inputs(predictions, references)
        return {**columns, "predictions": to_json(predictions), "references": to_json(references)}

    def _compute(
        self,
        predictions,
        references,
        weights=(1, 1, 1, 1),
        tuple_len=None,
        sep_token1=QUAD_SEP,
        sep_token2=ELEMENT_SEP,
        similarity="rouge_l",
        duplicates="multiset",
        exact_only=False,
        implicit_split=False,
        legacy_keys=False,
        details=False,
        zero_division=0.0,
        confidence_level=None,
        n_resamples=1000,
        seed=None,
        return_signature=False,
        parse=None,
        parse_references=True,
        strict=False,
        convention=None,
        spans=None,
    ):
        # Every argument goes to the package unchanged (a test keeps the signatures equal);
        # the examples come back from their JSON text.
        arguments = {name: value for name, value in locals().items() if name != "self"}
        arguments["predictions"], arguments["references"] = from_json(predictions), from_json(references)
        return compute(**arguments)
