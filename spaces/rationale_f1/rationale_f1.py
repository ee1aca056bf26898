"""rationale_f1: rationale token precision, recall and F1 as rationalization papers compute
them (DMR, FR, MGR, DAR, A2R, ERASER), with the true micro and macro F1, ERASER's IOU F1
and its AUPRC of soft scores."""

import datasets
import evaluate

# What the vendored package imports, named here for evaluate's dependency check at load time.
import numpy

# evaluate copies only the sibling files this script imports: a line for each vendored module
# (paperscore_faithfulness for the demo's ERASER faithfulness section; no comment after an
# import: evaluate would read it as the file's address).
from .paperscore_core import VERSION, as_corpus, check_same_length
from .paperscore_family import Family
from .paperscore_faithfulness import compute_results
from .paperscore_parse import get_parser
from .paperscore_rationale import RATIONALE_PARSERS, check_inputs, compute
from .paperscore_space import SpaceMetric, from_arrow, from_json, to_json
from .paperscore_state import State
from .paperscore_trainer import trainer_metrics

_CITATION = """\
@inproceedings{lei-etal-2016-rationalizing,
    title = "Rationalizing Neural Predictions",
    author = "Lei, Tao and Barzilay, Regina and Jaakkola, Tommi",
    booktitle = "Proceedings of EMNLP 2016",
    year = "2016",
    pages = "107--117",
}
@inproceedings{deyoung-etal-2020-eraser,
    title = "{ERASER}: {A} Benchmark to Evaluate Rationalized {NLP} Models",
    author = "DeYoung, Jay and Jain, Sarthak and Rajani, Nazneen Fatema and Lehman, Eric and Xiong, Caiming and Socher, Richard and Wallace, Byron C.",
    booktitle = "Proceedings of ACL 2020",
    year = "2020",
    pages = "4443--4458",
}
@inproceedings{huang-etal-2021-dmr,
    title = "Distribution Matching for Rationalization",
    author = "Huang, Yongfeng and Chen, Yujun and Du, Yulun and Yang, Zhilin",
    booktitle = "Proceedings of AAAI 2021",
    year = "2021",
}
@inproceedings{yu-etal-2021-a2r,
    title = "Understanding Interlocking Dynamics of Cooperative Rationalization",
    author = "Yu, Mo and Zhang, Yang and Chang, Shiyu and Jaakkola, Tommi",
    booktitle = "Advances in Neural Information Processing Systems 34 (NeurIPS 2021)",
    year = "2021",
}
@inproceedings{liu-etal-2022-fr,
    title = "{FR}: Folded Rationalization with a Unified Encoder",
    author = "Liu, Wei and Wang, Haozhao and Wang, Jun and Li, Ruixuan and Yue, Chao and Zhang, Yuankai",
    booktitle = "Advances in Neural Information Processing Systems 35 (NeurIPS 2022)",
    year = "2022",
}
"""

_DESCRIPTION = """\
Scores token selections (rationales) against human annotations. The headline is what DMR,
FR, MGR and DAR print as "micro" P/R/F1: the rationale class's precision, recall and F1
with counts summed over the corpus, plus sparsity. Beside it: the true micro F1 over both
classes (token accuracy), the macro F1 (mean of the two class F1s), per-example means (A2R;
ERASER's instance macro), ERASER's span-level IOU F1 and, for soft scores, ERASER's AUPRC.
Inputs are one sequence per example, as a transformers Trainer passes them: 0/1 selections
or scores in [0, 1] against 0/1 references padded with -100.
"""

_KWARGS_DESCRIPTION = f"""
Args:
    predictions: one sequence per example of 0/1 selections or soft scores in [0, 1]
        (lists, or a 2-D array); with parse, one model reply (text) quoting the input.
    references: one sequence per example of 0/1 gold selections; positions equal to
        ignore_index are not scored. A prediction is either as long as its reference
        (aligned) or as long as the reference's scored tokens. With parse: 0/1 per
        token of sources, or gold quotes (texts) placed by the same parser, strictly.
    sources: with parse, each example's input: a text (split on white space) or a list
        of tokens.
    parse: the replies' quotes placed on the tokens by this policy: {", ".join(RATIONALE_PARSERS)}.
        Adds parse_failures and parse_failure_examples (replies with a quote that matches
        no tokens; their first 0-based indices), quotes and unmatched_quotes.
    strict: a quote that matches no tokens is a ValueError.
    top_k_ratio: A2R's selection instead of a threshold: per example the int(width *
        top_k_ratio) highest scores, width = the reference's padded length.
    threshold: a soft score selects its token at this value (default 0.5).
    threshold_rule: ">=" (DMR, default) or ">" (FR, MGR, DAR).
    iou_threshold: ERASER's partial-match IOU, in [0.5, 1] (default 0.5).
    ignore_index: the padding value of references (default -100; None: no padding).
    auprc: None (default) adds "auprc" when some score is neither 0 nor 1; True / False.
    zero_division: the value of a 0/0 ratio: 0.0 (default), 1.0 or "nan" (undefined
        per-example values are then left out of the means).
    per_example: add "per_example", one dict of counts and scores per example.
    confidence_level, n_resamples, seed: add bootstrap "<key>_low" / "<key>_high".
    return_signature: add "signature", the reproducibility string.
Returns:
    precision, recall, f1, sparsity, micro_f1, macro_f1, example_precision,
    example_recall, example_f1, iou_precision, iou_recall, iou_f1 and, for soft scores,
    auprc, iou_micro_precision, iou_micro_recall, iou_micro_f1 (ERASER's micro partial
    match): floats in [0, 1]; with parse, the counts above.
Examples:
    >>> metric = evaluate.load("paperscore/rationale_f1")
    >>> r = metric.compute(predictions=[[0, 0, 0, 1, 1, 0, 1, 1, 0, 0]], references=[[0, 0, 0, 1, 0, 1, 0, 1, 0, 0]])
    >>> print(round(r["f1"], 4), round(r["micro_f1"], 4), round(r["macro_f1"], 4))
    0.5714 0.7 0.6703
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RationaleF1(SpaceMetric, evaluate.Metric):
    stored_format = "arrow"  # _compute reads the stored columns through from_arrow
    parser_family = "rationale_f1"  # parse=NAME: one of its parsers (checked by trainer_metrics at once)
    # evaluate.load(..., config_name="fr") for evaluate's combine and evaluator, which pass
    # no compute arguments; explicit arguments still win. The papers differ in the
    # selection rule (and ERASER in its IOU threshold); A2R's numbers are the example_* keys
    # under any configuration.
    configs = {
        "dmr": {"threshold": 0.5, "threshold_rule": ">="},
        "fr": {"threshold": 0.5, "threshold_rule": ">"},
        "mgr": {"threshold": 0.5, "threshold_rule": ">"},
        "dar": {"threshold": 0.5, "threshold_rule": ">"},
        "eraser": {"threshold": 0.5, "threshold_rule": ">=", "iou_threshold": 0.5},
    }
    # What evaluate's f1 and sklearn users pass out of habit (an error that says this).
    habits = {
        "average": (
            "every average is returned at once: precision / recall / f1 are the rationale class's over the corpus "
            "(what DMR, FR, MGR and DAR print as micro), micro_f1 the true micro F1 over both classes (token accuracy), "
            "macro_f1 the mean of the two classes' F1s, example_precision / example_recall / example_f1 the per-example means (A2R, ERASER)"
        ),
        "pos_label": "the positive class is the rationale (1): precision, recall and f1 are its numbers; micro_f1 and macro_f1 cover both classes",
    }

    def _info(self):
        # float64 scores: a float32 or int feature would round or truncate soft scores. Model
        # replies (parse=) travel as text, their references and sources as JSON text (see
        # check_batch); evaluate takes the first of the two layouts that a batch fits.
        text = datasets.Value("string")
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.Sequence(datasets.Value("float64")), "references": datasets.Sequence(datasets.Value("int64")), "sources": text}),
                datasets.Features({"predictions": text, "references": text, "sources": text}),
            ],
            homepage="https://huggingface.co/spaces/paperscore/rationale_f1",
            codebase_urls=["https://github.com/jayded/eraserbenchmark", "https://github.com/kochsnow/distribution-matching-rationality"],
            reference_urls=["https://www.eraserbenchmark.com/"],
        )

    optional_inputs = ("sources",)  # only model replies (parse=) need them

    def check_batch(self, columns):
        sources = columns.get("sources")
        given = sources is not None and any(source is not None for source in sources)
        predictions = as_corpus(columns["predictions"], "predictions")
        if len(predictions) and all(isinstance(prediction, str) for prediction in predictions):  # model replies
            references = as_corpus(columns["references"], "references")
            check_same_length(predictions, references)
            if not given:
                raise ValueError("sources: model replies (for parse=) need each example's input, a text or a list of tokens")
            sources = as_corpus(sources, "sources")
            check_same_length(predictions, sources, ("predictions", "sources"))
            return {**columns, "predictions": list(predictions), "references": to_json(references), "sources": to_json(sources)}
        if given:
            raise ValueError("sources: apply to model replies read by a parser (parse=); these predictions are selections")
        # tensors become numpy here, so evaluate stores what compute() would read
        predictions, references = check_inputs(predictions, columns["references"])
        return {**columns, "predictions": predictions, "references": references, "sources": [""] * len(predictions)}

    def _compute(
        self,
        predictions,
        references,
        sources=None,
        threshold=0.5,
        threshold_rule=">=",
        iou_threshold=0.5,
        ignore_index=-100,
        auprc=None,
        zero_division=0.0,
        per_example=False,
        confidence_level=None,
        n_resamples=1000,
        seed=None,
        return_signature=False,
        parse=None,
        strict=False,
        top_k_ratio=None,
    ):
        # Every argument goes to the package unchanged (a test keeps the signatures equal);
        # model replies get back their references and sources from JSON text.
        predictions, references, sources = map(from_arrow, (predictions, references, sources))
        arguments = {name: value for name, value in locals().items() if name != "self"}
        replies = len(predictions) and isinstance(predictions[0], str)
        arguments["references"] = from_json(references) if replies else references
        arguments["sources"] = from_json(sources) if replies else None
        return compute(**arguments)
