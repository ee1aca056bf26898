"""csc_sighan: the official SIGHAN Chinese spelling check evaluation (2013, 2014, 2015),
exactly as the bake-off jars compute it, from sentence triples or from the jars' label lines."""

import datasets
import evaluate

# What the vendored package imports, named here for evaluate's dependency check at load time.
import numpy

# evaluate copies only the sibling files this script imports: a line for each vendored module.
from .paperscore_core import VERSION
from .paperscore_family import Family
from .paperscore_csc import stored_sources
from .paperscore_csc_sighan import check_columns, compute
from .paperscore_parse import CSC_PARSERS
from .paperscore_space import SpaceMetric
from .paperscore_trainer import trainer_metrics

_CITATION = """\
@inproceedings{tseng-etal-2015-introduction,
    title = "Introduction to {SIGHAN} 2015 Bake-off for {C}hinese Spelling Check",
    author = "Tseng, Yuen-Hsien and Lee, Lung-Hao and Chang, Li-Ping and Chen, Hsin-Hsi",
    booktitle = "Proceedings of the Eighth {SIGHAN} Workshop on {C}hinese Language Processing",
    year = "2015",
    pages = "32--37",
    url = "https://aclanthology.org/W15-3106",
}
@inproceedings{yu-etal-2014-overview,
    title = "Overview of {SIGHAN} 2014 Bake-off for {C}hinese Spelling Check",
    author = "Yu, Liang-Chih and Lee, Lung-Hao and Tseng, Yuen-Hsien and Chen, Hsin-Hsi",
    booktitle = "Proceedings of the Third {CIPS}-{SIGHAN} Joint Conference on {C}hinese Language Processing",
    year = "2014",
    pages = "126--132",
    url = "https://aclanthology.org/W14-6820",
}
@inproceedings{wu-etal-2013-chinese,
    title = "{C}hinese Spelling Check Evaluation at {SIGHAN} Bake-off 2013",
    author = "Wu, Shih-Hung and Liu, Chao-Lin and Lee, Lung-Hao",
    booktitle = "Proceedings of the Seventh {SIGHAN} Workshop on {C}hinese Language Processing",
    year = "2013",
    pages = "35--42",
    url = "https://aclanthology.org/W13-4406",
}
"""

_DESCRIPTION = """\
The official evaluation of the SIGHAN Chinese spelling check bake-offs, equal to the jars
(sighan15csc.jar, clp14csc.jar, sighan7csc.jar) to the printed digit. 2014/2015: a
sentence-level confusion matrix where false positives come only from error-free sentences
(a wrong correction of an erroneous sentence is a false negative, never a false positive),
the correction check's containment quirk, the false positive rate, and accuracy, precision,
recall and F1 at the detection and the correction level. 2013: the subtask 1 (detection)
and subtask 2 (correction) metrics. Input: sentences (sources, predictions, references; the
edits are the 1-based positions where a sentence differs from its source), or, without
sources, the jars' label lines `pid, 0` / `pid, pos, char, ...`.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: the system's sentences, or (without sources) its label lines.
    references: the gold sentences, or the truth's label lines (matched to the result by pid).
    sources: the input sentences; omit them to pass label lines.
    version: "2015" (default) or "2014" (the same confusion matrix); "2013" with subtask.
    subtask: 1 (error detection, positions only) or 2 (correction), for version "2013".
    correction_match: "subset" (the jar: predicted characters a subset of the gold ones,
        so swapped corrections pass), "exact" (aligned (position, char) pairs) or "set"
        (CCL2022 track 1: the set of predicted characters equals the gold one).
    length_mismatch: "error" (default), "truncate" (compare the common prefix) or "whole"
        (a sentence of another length is one edit, right only if it equals the reference).
    zero_division: value of a 0/0 ratio: 0.0 (default), 1.0 or "nan" (the jar's NaN).
    return_counts: add the confusion-matrix counts (detection_tp, ... or the 2013 counts).
    per_sentence: add each sentence's class (TP/FP/TN/FN) and edits.
    confidence_level, n_resamples, seed: add bootstrap "<key>_low" / "<key>_high".
    return_signature: add "signature", the reproducibility string.
    parse: predictions are a corrector's replies, each read into its sentence by this
        parser first (then everything as for sentences; sources needed): PARSERS.
        Adds parse_failures (replies the parser does not recognise, or that its
        repository would not score as read) and parse_failure_examples (their first
        0-based indices). A name is its newest version; NAME@1 selects version 1.
    strict: a reply the parser cannot read is a ValueError.
Returns:
    2014/2015: false_positive_rate, detection_accuracy, detection_precision,
    detection_recall, detection_f1, correction_accuracy, correction_precision,
    correction_recall, correction_f1. 2013 subtask 1: false_alarm_rate, detection_*,
    location_*; subtask 2: location_accuracy, correction_accuracy, correction_precision.
Examples:
    >>> metric = evaluate.load("paperscore/csc_sighan")
    >>> result = metric.compute(sources=["他門很好", "今天很熱"], predictions=["他們很好", "今天很熟"], references=["他們很好", "今天很熱"])
    >>> print(result["false_positive_rate"], result["detection_precision"], result["correction_recall"])
    1.0 0.5 1.0
"""

_KWARGS_DESCRIPTION = _KWARGS_DESCRIPTION.replace("PARSERS", ", ".join(map(repr, CSC_PARSERS)))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class CscSighan(SpaceMetric, evaluate.Metric):
    parser_family = "csc"  # parse=NAME: one of its parsers (checked by trainer_metrics at once)
    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {"predictions": datasets.Value("string"), "references": datasets.Value("string"), "sources": datasets.Value("string")}
            ),
            homepage="https://huggingface.co/spaces/paperscore/csc_sighan",
            codebase_urls=["https://github.com/onebula/sighan_raw"],
            reference_urls=["https://aclanthology.org/W15-3106", "https://aclanthology.org/W14-6820", "https://aclanthology.org/W13-4406"],
        )

    optional_inputs = ("sources",)  # label lines come without
    # evaluate.load("paperscore/csc_sighan", config_name=...): each bake-off's definition
    # (and the Python ports' exact correction match), for evaluate's combine and evaluator.
    configs = {
        "sighan15": {"version": "2015"},
        "sighan14": {"version": "2014"},
        "sighan15_exact": {"version": "2015", "correction_match": "exact"},
        "sighan13_subtask1": {"version": "2013", "subtask": 1},
        "sighan13_subtask2": {"version": "2013", "subtask": 2},
    }

    def check_batch(self, columns):
        return check_columns(columns)

    def _compute(
        self,
        predictions,
        references,
        sources=None,
        version="2015",
        subtask=None,
        correction_match="subset",
        length_mismatch="error",
        zero_division=0.0,
        return_counts=False,
        per_sentence=False,
        confidence_level=None,
        n_resamples=1000,
        seed=None,
        return_signature=False,
        parse=None,
        strict=False,
    ):
        # Every argument goes to the package unchanged (a test keeps the signatures equal),
        # but label lines get back sources=None for the "" evaluate stored.
        arguments = {name: value for name, value in locals().items() if name != "self"}
        return compute(**{**arguments, "sources": stored_sources(sources)})
