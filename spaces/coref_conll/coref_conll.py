"""coref_conll: MUC, B3, CEAFm, CEAFe, BLANC, LEA and the CoNLL score, equal to the
CoNLL reference scorer (conll/reference-coreference-scorers), one example per document."""

import datasets
import evaluate

# What the vendored package imports, named here for evaluate's dependency check at load time.
import numpy
import scipy.optimize

# evaluate copies only the sibling files this script imports: a line for each vendored module.
from .paperscore_core import VERSION
from .paperscore_family import Family
from .paperscore_coref import batch_forms, check_inputs, compute
from .paperscore_corefud import CRAC, MATCHING
from .paperscore_parse import COREF_PARSERS
from .paperscore_space import SpaceMetric
from .paperscore_trainer import trainer_metrics

_CITATION = """\
@inproceedings{pradhan-etal-2014-scoring,
    title = "Scoring Coreference Partitions of Predicted Mentions: A Reference Implementation",
    author = "Pradhan, Sameer and Luo, Xiaoqiang and Recasens, Marta and Hovy, Eduard and Ng, Vincent and Strube, Michael",
    booktitle = "Proceedings of ACL 2014 (Volume 2: Short Papers)",
    year = "2014",
    pages = "30--35",
}
@inproceedings{moosavi-strube-2016-coreference,
    title = "Which Coreference Evaluation Metric Do You Trust? A Proposal for a Link-based Entity Aware Metric",
    author = "Moosavi, Nafise Sadat and Strube, Michael",
    booktitle = "Proceedings of ACL 2016 (Volume 1: Long Papers)",
    year = "2016",
    pages = "632--642",
}
"""

_DESCRIPTION = """\
Coreference scores exactly as the CoNLL reference scorer computes them: MUC, B3, CEAFm,
CEAFe and BLANC of scorer.pl v8.01 and LEA of its LEA-scorer branch, each with recall,
precision and F1, and conll_f1, the mean of the MUC, B3 and CEAFe F1s. Each example is one
document; numerators and denominators are summed over documents, as the reference does
(evaluate's `coval` instead puts every example into one document). Twinless mentions,
singletons and the reference's de-duplication of repeated response mentions are kept.
A document is a CoNLL-2011/2012 string, a list of clusters of mention ids, or a list of
clusters of [start, end] token spans.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: the response, one item per document: a CoNLL-2011/2012 document or an
        OntoNotes jsonlines line as one string (a jsonlines line's predicted_clusters are
        read when it has them, as predict.py writes them beside the gold clusters), a list
        of clusters of mention ids (str), or a list of clusters of [start, end] spans.
    references: the key, same layout. Strings and spans may be mixed; ids compare only
        with ids.
    span_convention: how [start, end] pairs count, one name for both sides or a
        (predictions, references) pair: "token_inclusive" (default: CoNLL,
        e2e-coref jsonlines, Maverick clusters_token_offsets), "token_exclusive" (spaCy
        Span.end, wl-coref), "char_exclusive" (fastcoref, LingMess), "char_inclusive"
        (Maverick clusters_char_offsets). Spans that cannot be so are refused by name.
    tokens: for a character convention, per document the tokens the key counts.
    texts: per document the text the character offsets count in (default: the tokens
        joined by single spaces).
    convention: "scorer_pl" (default, the reference scorer), "e2e_coref", the
        evaluator of kentonl/e2e-coref's metrics.py that neural papers report (MUC, B3,
        CEAFe, LEA; B3 and LEA without singletons, CEAFe without the response's; fastcoref's
        copy too), or "maverick", Maverick's copy (MUC, B3, CEAFe as the reference, LEA
        without singletons).
    metrics: a list among "muc", "bcub", "ceafm", "ceafe", "blanc", "lea" and "mentions"
        (mention identification); default the six metrics. CorefUD CoNLL-U: among the six,
        "mor" (Mention Overlap Ratio) and "zero" (zero anaphors), default all eight (as
        corefud-scorer's -m all).
    keep_singletons: False removes entities of one mention from both sides first (coval's
        option; the reference keeps them).
    remove_nested, NP_only, min_span: coval's options (ns-moosavi/coval, named as
        evaluate's coval names them), on both sides: drop mentions nested in another
        mention of their entity; drop verb-phrase mentions; match mentions by their minimum
        span. NP_only and min_span read the parse trees of the references, which must then
        be CoNLL documents with a parse column (column 6).
    zero_division: the value of a 0/0 ratio: 0.0 (default, as the reference), 1.0 or "nan".
    per_document: add "per_document", the numbers of each document.
    return_counts: add "counts", every numerator and denominator.
    confidence_level, n_resamples, seed: add bootstrap "<key>_low" / "<key>_high",
        resampling documents.
    return_signature: add "signature", the reproducibility string.
    matching: for CorefUD CoNLL-U texts (Entity= in MISC; one file per item), scored as
        ufal/corefud-scorer v1.2: {matching} (default "exact"). CRAC 2023-2025 report
        "head" with keep_singletons=False.
    zero_matching: how CoNLL-U zeros align: "dependent" (default, by DEPS) or "linear".
    parse: predictions are an LLM's text, read by a parser of paperscore.parse ({parsers}) and placed
        on the source tokens (`tokens`, else the references' own words, which must then
        be CoNLL-2012 or jsonlines strings): "coref_markdown", the text rewritten with
        mentions marked "[Mary](#1) said [she](#1)" (Le & Ritter's document template), or
        "coref_clusters", a JSON list of lists of mention strings (each at its first
        unused occurrence). A mention that cannot be placed (on text the model changed)
        stays in its cluster as a mention matching no key mention, and is counted: the
        result adds mentions_on_changed_text and parse_failures (with the first
        example indices); the signature names the parser.
    strict: with parse, an unreadable text or an unplaced mention is an error.
Returns:
    muc_recall, muc_precision, muc_f1, and the same for bcub, ceafm, ceafe, blanc and lea,
    and conll_f1: floats in [0, 1].
Examples:
    >>> metric = evaluate.load("paperscore/coref_conll")
    >>> key = [[["a", "b", "d"], ["c", "e", "f", "g"], ["h", "i", "j", "k"]]]
    >>> response = [[["a", "b", "c"], ["d", "e", "f", "g"], ["h", "i", "j"], ["k"]]]
    >>> result = metric.compute(predictions=response, references=key)
    >>> print(round(result["muc_recall"], 4), round(result["muc_precision"], 4), round(result["conll_f1"], 4))
    0.625 0.7143 0.6612
"""

_FORMS = {
    "conll": datasets.Value("string"),
    "ids": datasets.Sequence(datasets.Sequence(datasets.Value("string"))),
    "spans": datasets.Sequence(datasets.Sequence(datasets.Sequence(datasets.Value("int64")))),
}
# (predictions, references) forms evaluate can store; check_inputs rejects the others.
_PAIRS = [("conll", "conll"), ("ids", "ids"), ("spans", "spans"), ("spans", "conll"), ("conll", "spans")]


_KWARGS_DESCRIPTION = _KWARGS_DESCRIPTION.replace("{matching}", ", ".join(f'"{m}"' for m in MATCHING)).replace("{parsers}", ", ".join(COREF_PARSERS))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class CorefConll(SpaceMetric, evaluate.Metric):
    parser_family = "coref"  # parse=NAME: one of its parsers (checked by trainer_metrics at once)
    # evaluate.load(..., config_name=NAME): presets for evaluate's combine and evaluator.
    configs = {
        "conll": {"metrics": ["muc", "bcub", "ceafe"]},  # the CoNLL-2012 score and the three it averages
        "scorer_pl": {"metrics": ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc"]},  # `scorer.pl all`
        "without_singletons": {"keep_singletons": False},  # coval's remove_singletons
        "e2e_coref": {"convention": "e2e_coref"},  # kentonl/e2e-coref's metrics.py, as neural papers report
        "maverick": {"convention": "maverick"},  # Maverick's copy: reference MUC/B3/CEAFe, LEA without singletons
        # CRAC 2024's primary score on CorefUD CoNLL-U (scorer v1.2, which this one equals;
        # CRAC 2022/2023 ran v1.0/v1.1, whose partial / head matching differ slightly)
        "crac24": CRAC["crac24"],
    }

    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[datasets.Features({"predictions": _FORMS[p], "references": _FORMS[r]}) for p, r in _PAIRS],
            homepage="https://huggingface.co/spaces/paperscore/coref_conll",
            codebase_urls=["https://github.com/conll/reference-coreference-scorers"],
            reference_urls=["https://aclanthology.org/P14-2006/", "https://aclanthology.org/P16-1060/"],
        )

    def check_batch(self, columns):
        # evaluate picks a feature from the first document only and would silently store
        # a span [0, 1] as the id "[0, 1]": every document is checked, and the batch is
        # stored in the feature of its forms.
        held = _PAIRS[self.info.features.index(self.selected_feature_format)] if self.writer is not None else None
        self._forms = batch_forms(check_inputs(columns["predictions"], columns["references"]), held)
        return columns

    def _infer_feature_from_batch(self, batch):
        """The feature of the forms that add_batch found in the whole batch."""
        return self.info.features[_PAIRS.index(self._forms)]

    def _infer_feature_from_example(self, example):
        """The feature of the forms that add found in the document."""
        return self.info.features[_PAIRS.index(self._forms)]

    def trainer_metrics(self, *arguments, **options):
        """SpaceMetric.trainer_metrics; with parse, `references=` (the evaluation set's key
        documents, whose words the model texts are placed on) is required: the decoded
        label ids are model texts, not keys."""
        if options.get("parse") is not None:
            if options.get("references") is None:
                raise ValueError("references: with parse, give the evaluation set's key documents in order (CoNLL-2012 or jsonlines strings) as trainer_metrics(references=...); the decoded label ids are model texts, not keys")
        return super().trainer_metrics(*arguments, **options)

    def _compute(
        self,
        predictions,
        references,
        metrics=None,
        keep_singletons=True,
        zero_division=0.0,
        per_document=False,
        return_counts=False,
        confidence_level=None,
        n_resamples=1000,
        seed=None,
        return_signature=False,
        span_convention="token_inclusive",
        tokens=None,
        texts=None,
        convention="scorer_pl",
        remove_nested=False,
        NP_only=False,
        min_span=False,
        matching="exact",
        zero_matching="dependent",
        parse=None,
        strict=False,
    ):
        # Every argument goes to the package unchanged (a test keeps the signatures equal).
        return compute(**{name: value for name, value in locals().items() if name != "self"})
