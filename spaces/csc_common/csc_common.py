"""csc_common: Chinese spelling check scored as papers score it, each convention equal to
one project's released evaluation code (ReaLiSe, SCOPE, SpellGCN, PLOME, CRASpell, Pointer
Networks, FASPell, CSCD-NS, pycorrector, PaddleNLP, LEMON), or all of them side by side."""

import datasets
import evaluate

# What the vendored package imports, named here for evaluate's dependency check at load time.
import numpy

# evaluate copies only the sibling files this script imports: a line for each vendored module.
from .paperscore_core import VERSION
from .paperscore_family import Family
from .paperscore_csc import checked_columns, stored_sources
from .paperscore_csc_common import VARIANTS, compute, corpora
from .paperscore_csc_llm import NORMALIZATIONS
from .paperscore_parse import CSC_PARSERS
from .paperscore_space import SpaceMetric
from .paperscore_trainer import trainer_metrics

_CITATION = """\
@inproceedings{xu-etal-2021-read,
    title = "Read, Listen, and See: Leveraging Multimodal Information Helps {C}hinese Spell Checking",
    author = "Xu, Heng-Da and Li, Zhongli and Zhou, Qingyu and Li, Chao and Wang, Zizhen and Cao, Yunbo and Huang, Heyan and Mao, Xian-Ling",
    booktitle = "Findings of the Association for Computational Linguistics: ACL-IJCNLP 2021",
    year = "2021",
    url = "https://aclanthology.org/2021.findings-acl.64",
}
@inproceedings{cheng-etal-2020-spellgcn,
    title = "{S}pell{GCN}: Incorporating Phonological and Visual Similarities into Language Models for {C}hinese Spelling Check",
    author = "Cheng, Xingyi and Xu, Weidi and Chen, Kunlong and Jiang, Shaohua and Wang, Feng and Wang, Taifeng and Chu, Wei and Qi, Yuan",
    booktitle = "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics",
    year = "2020",
    url = "https://aclanthology.org/2020.acl-main.81",
}
"""

_DESCRIPTION = """\
Chinese spelling check (CSC) as papers score it. Most papers since 2020 do not report the
official SIGHAN figures but those of the evaluation code they copied, and those codes
disagree: on which sentences enter the precision denominator, whether a wrong character at
the right position is a false positive, which sentences enter the character level, how a
correction is judged there, what happens on 0/0 and on a sentence of another length. Each
`variant` reproduces one project's released code exactly, quirks included; `variant="all"`
computes every one of them in one pass, keys prefixed `<variant>/`. Input: sentence
triples (the edits are the 1-based positions where a sentence differs from its source), or,
without sources, label lines `pid, 0` / `pid, pos, char, ...`.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: the system's sentences, or (without sources) its label lines.
    references: the gold sentences, or the truth's label lines (matched by pid).
    sources: the input sentences; omit them to pass label lines.
    (evaluate.load(..., config_name=NAME) with NAME a variant, or "all", sets the default variant.)
    variant: "realise" (default; also SCOPE's and CCL2022's sentence level), "scope",
        "spellgcn", "plome", "craspell", "pointer", "faspell", "faspell_nonstrict", "cscd_ns",
        "pycorrector", "paddle", "lemon", "cllm", "simple_csc", "msllm" (LLM correctors), or "all" (every one, keys prefixed "<variant>/").
    char_subset: "all" or "erroneous" (character level over the sentences with a gold
        edit only); default: the preset's own (SpellGCN and PLOME: "erroneous").
    length_mismatch: "error", "truncate", "whole" or "align" (a minimal-edit alignment:
        insertions and deletions are edits) for every preset; default: each preset as its
        code treats a sentence whose length differs from its source.
    remove_de: drop predicted edits into 地/得 (ReaLiSe's and SCOPE's SIGHAN13 post-processing).
    normalize: steps applied to the sentences before scoring, any of NORMALIZATIONS, or
        "none" (no step, as ()); default: none, except the
        LLM presets' own (simple_csc, msllm: as their run.sh).
    ignore_chars: a string of source characters whose edits no preset scores.
    zero_division: value of a ratio the original divides by zero: 0.0 (default), 1.0 or
        "nan". Presets whose code adds an epsilon keep it.
    return_counts: add the per-sentence counts summed (sentences, gold_sentences, ...).
    per_sentence: add each sentence's classes and edits.
    confidence_level, n_resamples, seed: add bootstrap "<key>_low" / "<key>_high".
    return_signature: add "signature", the reproducibility string.
    parse: predictions are a corrector's replies, each read into its sentence by this
        parser first (then everything as for sentences; sources needed): PARSERS.
        Adds parse_failures (replies the parser does not recognise, or that its
        repository would not score as read) and parse_failure_examples (their first
        0-based indices). A name is its newest version; NAME@1 selects version 1.
    strict: a reply the parser cannot read is a ValueError.
Returns:
    sentence_detection_{accuracy,precision,recall,f1}, sentence_correction_{...},
    char_detection_{precision,recall,f1}, char_correction_{precision,recall,f1}, as the
    preset has them; sentence_false_positive_rate (every preset); extras: char_joint_{precision,
    recall,f1} (spellgcn), char_correction2_{precision,f1} (craspell), *_f0.5 (cllm,
    simple_csc, msllm).
Examples:
    >>> metric = evaluate.load("paperscore/csc_common")
    >>> result = metric.compute(sources=["他門很好", "我門走吧", "今天很熱"], predictions=["他們很好", "我悶走吧", "今天很熱"], references=["他們很好", "我們走吧", "今天很熱"])
    >>> print(result["sentence_detection_precision"], result["sentence_correction_precision"])
    1.0 0.5
"""

_KWARGS_DESCRIPTION = _KWARGS_DESCRIPTION.replace("NORMALIZATIONS", ", ".join(map(repr, NORMALIZATIONS))).replace("PARSERS", ", ".join(map(repr, CSC_PARSERS)))


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class CscCommon(SpaceMetric, evaluate.Metric):
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
            homepage="https://huggingface.co/spaces/paperscore/csc_common",
            codebase_urls=["https://github.com/DaDaMrX/ReaLiSe", "https://github.com/ACL2020SpellGCN/SpellGCN", "https://github.com/shibing624/pycorrector"],
            reference_urls=["https://aclanthology.org/2021.findings-acl.64", "https://aclanthology.org/2020.acl-main.81"],
        )

    optional_inputs = ("sources",)  # label lines come without
    # evaluate.load(..., config_name="scope"): a preset where no compute arguments can be passed
    # (evaluate.combine and the evaluator pass no sources either: the LLM presets, which
    # need them, are reached by variant=)
    configs = {**{name: {"variant": name} for name in VARIANTS if name not in ("simple_csc", "msllm")}, "all": {"variant": "all"}}

    def check_batch(self, columns):
        return checked_columns({**columns, **corpora(**{name: columns.get(name) for name in ("predictions", "references", "sources")})})

    def _compute(
        self,
        predictions,
        references,
        sources=None,
        variant="realise",
        char_subset=None,
        length_mismatch=None,
        remove_de=False,
        normalize=None,
        ignore_chars=None,
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
