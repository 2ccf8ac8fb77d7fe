#!/usr/bin/env python3
"""Checks UMCF files against the schema AND the UnaMentis app's own rules.

    umcf_check.py [--schema PATH] [--no-schema] [--analyzer [--alternatives]] FILE...

The schema (draft 2020-12, validated with jsonschema's Draft202012Validator) is one half; the
other half is what the app's decoder and importer require beyond it (../shared/formats/umcf/
NOTES.md): both `formatIdentifier` and `umcf`, a `curriculum` root whose children are units
and topics, ids as {catalog, value} objects, dates with a zone, durations in one unit,
assessments and checkpoints in both spellings with plain-string fields, transcript segments
on every topic node, no `speakingNotes.pauseAfter` and no `metadata.coverage`.

Prints one line per violation (`FILE: WHERE: WHAT`) and exits 1 when any file has one; prints
`FILE: valid` for a file with none. Exits 2 when the schema or jsonschema is missing.
"""
import argparse
import json
import os
import re
import sys
from pathlib import Path

NODE_TYPES = {"curriculum", "unit", "module", "topic", "subtopic", "lesson", "section", "segment"}
TOPIC_TYPES = {"topic", "subtopic", "lesson"}
UNIT_TYPES = {"unit", "module"}
SEGMENT_TYPES = {"lecture", "explanation", "example", "checkpoint", "transition", "summary", "introduction", "conclusion"}
ASSESSMENT_TYPES = {"choice", "multiple_choice", "text_entry", "true_false"}
CONTRIBUTOR_ROLES = {
    "author", "publisher", "unknown", "initiator", "terminator", "validator", "editor", "graphical designer",
    "technical implementer", "content provider", "technical validator", "educational validator", "script writer",
    "instructional designer", "subject matter expert",
}
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
ONE_UNIT = re.compile(r"^PT\d+[HMS]$")


def default_schema():
    if os.environ.get("UMCF_SCHEMA"):
        return Path(os.environ["UMCF_SCHEMA"])
    # Tests/Support → the repository → ../shared beside it.
    return Path(__file__).resolve().parent.parent.parent.parent / "shared" / "formats" / "umcf" / "umcf-schema.json"


class Checker:
    def __init__(self):
        self.problems = []
        self.node_ids = {}
        self.segment_ids = {}

    def fail(self, where, what):
        self.problems.append(f"{where}: {what}")

    # Small shape checks, each naming the place it looked at.
    def string(self, obj, key, where, required=True):
        if key not in obj:
            if required:
                self.fail(where, f"`{key}` is missing")
            return None
        if not isinstance(obj[key], str):
            self.fail(f"{where}.{key}", f"must be a plain string (the app decodes a string), not {type(obj[key]).__name__}")
            return None
        return obj[key]

    def identifier(self, obj, key, where, required=True):
        if key not in obj:
            if required:
                self.fail(where, f"`{key}` is missing")
            return None
        value = obj[key]
        if not isinstance(value, dict):
            self.fail(f"{where}.{key}", "an id must be an object {catalog, value}, not a plain value")
            return None
        if not isinstance(value.get("value"), str) or not value.get("value"):
            self.fail(f"{where}.{key}", "an id object needs a non-empty string `value`")
            return None
        if "catalog" in value and not isinstance(value["catalog"], str):
            self.fail(f"{where}.{key}.catalog", "must be a string")
        return value["value"]

    def date(self, obj, key, where, required=False):
        if key not in obj:
            if required:
                self.fail(where, f"`{key}` is missing (without it the app takes the import time)")
            return
        value = obj[key]
        if not isinstance(value, str) or not DATE_TIME.match(value):
            self.fail(f"{where}.{key}", f"{value!r} is not a full ISO 8601 date-time with a zone (the app reads it as now)")

    def duration(self, value, where):
        if not isinstance(value, str) or not ONE_UNIT.match(value):
            self.fail(where, f"{value!r} is not a duration in one unit (PT45M, PT90M; never PT1H30M)")

    # The document.
    def check(self, doc):
        if not isinstance(doc, dict):
            self.fail("$", "the file must hold one JSON object")
            return
        if doc.get("formatIdentifier") != "umcf":
            self.fail("$", '`formatIdentifier` must be "umcf" (the schema requires it)')
        if doc.get("umcf") != "1.0.0":
            self.fail("$", '`umcf` must be "1.0.0" (the app\'s decoder requires it)')
        self.identifier(doc, "id", "$")
        title = self.string(doc, "title", "$")
        if title is not None and not title.strip():
            self.fail("$.title", "is empty")
        version = doc.get("version")
        if not isinstance(version, dict) or not isinstance(version.get("number"), str):
            self.fail("$", "`version.number` is missing")
        else:
            self.date(version, "date", "$.version")
        lifecycle = doc.get("lifecycle")
        if not isinstance(lifecycle, dict):
            self.fail("$", "`lifecycle` with `created` and `modified` is missing (the app takes the import time)")
        else:
            self.date(lifecycle, "created", "$.lifecycle", required=True)
            self.date(lifecycle, "modified", "$.lifecycle", required=True)
            for key in ("validFrom", "validUntil"):
                self.date(lifecycle, key, "$.lifecycle")
            for i, contributor in enumerate(lifecycle.get("contributors") or []):
                where = f"$.lifecycle.contributors[{i}]"
                self.string(contributor, "name", where)
                role = self.string(contributor, "role", where)
                if role is not None and role not in CONTRIBUTOR_ROLES:
                    self.fail(f"{where}.role", f"{role!r} is not one of the schema's roles")
                self.date(contributor, "date", where)
        metadata = doc.get("metadata")
        if isinstance(metadata, dict) and "coverage" in metadata:
            self.fail("$.metadata.coverage", "leave it out: a string in the schema, an array in the app")
        educational = doc.get("educational")
        if isinstance(educational, dict) and "typicalLearningTime" in educational:
            self.duration(educational["typicalLearningTime"], "$.educational.typicalLearningTime")
        self.provenance(doc.get("sourceProvenance"))
        glossary = doc.get("glossary")
        if isinstance(glossary, dict):
            for i, term in enumerate(glossary.get("terms") or []):
                self.glossary_term(term, f"$.glossary.terms[{i}]")
        content = doc.get("content")
        if not isinstance(content, list) or not content:
            self.fail("$", "`content` must be a non-empty array of nodes")
            return
        if len(content) != 1:
            self.fail("$.content", f"must hold ONE root node (type curriculum), not {len(content)}")
        for i, node in enumerate(content):
            where = f"$.content[{i}]"
            if isinstance(node, dict) and node.get("type") != "curriculum":
                self.fail(where, f"the root node's type must be curriculum, not {node.get('type')!r}")
            self.node(node, where, parent="root")
        self.forbidden(doc, "$")

    def provenance(self, provenance):
        if not isinstance(provenance, dict):
            return
        imported = provenance.get("importMetadata")
        if isinstance(imported, dict):
            self.date(imported, "importDate", "$.sourceProvenance.importMetadata")
        generated = provenance.get("aiGenerationMetadata")
        if isinstance(generated, dict):
            for key in ("generationDate", "reviewDate"):
                self.date(generated, key, "$.sourceProvenance.aiGenerationMetadata")
        for i, source in enumerate(provenance.get("primarySources") or []):
            if isinstance(source, dict):
                self.identifier(source, "id", f"$.sourceProvenance.primarySources[{i}]", required=False)
                self.date(source, "accessDate", f"$.sourceProvenance.primarySources[{i}]")

    def node(self, node, where, parent):
        if not isinstance(node, dict):
            self.fail(where, "a node must be an object")
            return
        node_id = self.identifier(node, "id", where)
        if node_id is not None:
            if node_id in self.node_ids:
                self.fail(f"{where}.id", f"{node_id!r} is also the id of {self.node_ids[node_id]} (re-import replaces by id)")
            else:
                self.node_ids[node_id] = where
        self.string(node, "title", where)
        kind = self.string(node, "type", where)
        if kind is not None and kind not in NODE_TYPES:
            self.fail(f"{where}.type", f"{kind!r} is not a node type ({', '.join(sorted(NODE_TYPES))})")
        if parent == "curriculum" and kind not in UNIT_TYPES | TOPIC_TYPES:
            self.fail(f"{where}.type", f"the root's children must be units or topics, not {kind!r}")
        if parent in UNIT_TYPES and kind not in TOPIC_TYPES:
            self.fail(f"{where}.type", f"a unit's children must be topic, subtopic or lesson nodes, not {kind!r}")
        if kind == "curriculum" and parent != "root":
            self.fail(f"{where}.type", "only the root node is a curriculum")
        if "content" in node:
            self.fail(f"{where}.content", "a node's content text is never seen by the tutor: put it in transcript.segments")
        for i, objective in enumerate(node.get("learningObjectives") or []):
            self.identifier(objective, "id", f"{where}.learningObjectives[{i}]")
            self.string(objective, "statement", f"{where}.learningObjectives[{i}]")
        for i, term in enumerate(node.get("glossaryTerms") or []):
            self.glossary_term(term, f"{where}.glossaryTerms[{i}]")
        estimates = node.get("timeEstimates")
        if isinstance(estimates, dict):
            for key, value in estimates.items():
                self.duration(value, f"{where}.timeEstimates.{key}")
        transcript = node.get("transcript")
        segments = transcript.get("segments") if isinstance(transcript, dict) else None
        if kind in TOPIC_TYPES:
            if not isinstance(segments, list) or not segments:
                self.fail(where, "a topic node needs transcript.segments (at least one): it is what the tutor speaks")
        elif transcript is not None:
            self.fail(f"{where}.transcript", f"the app reads transcripts only from topic, subtopic and lesson nodes, not {kind!r}")
        if isinstance(transcript, dict) and "totalDuration" in transcript:
            self.duration(transcript["totalDuration"], f"{where}.transcript.totalDuration")
        for i, segment in enumerate(segments or []):
            self.segment(segment, f"{where}.transcript.segments[{i}]")
        for i, assessment in enumerate(node.get("assessments") or []):
            self.assessment(assessment, f"{where}.assessments[{i}]")
        self.media(node.get("media"), f"{where}.media")
        for i, child in enumerate(node.get("children") or []):
            self.node(child, f"{where}.children[{i}]", parent=kind)

    def glossary_term(self, term, where):
        if not isinstance(term, dict):
            self.fail(where, "a glossary term must be an object")
            return
        self.string(term, "term", where)
        self.string(term, "definition", where)

    def segment(self, segment, where):
        if not isinstance(segment, dict):
            self.fail(where, "a segment must be an object")
            return
        segment_id = self.string(segment, "id", where)
        if segment_id is not None:
            if segment_id in self.segment_ids:
                self.fail(f"{where}.id", f"{segment_id!r} is also the id of {self.segment_ids[segment_id]}")
            else:
                self.segment_ids[segment_id] = where
        kind = self.string(segment, "type", where)
        if kind is not None and kind not in SEGMENT_TYPES:
            self.fail(f"{where}.type", f"{kind!r} is not a segment type ({', '.join(sorted(SEGMENT_TYPES))})")
        content = self.string(segment, "content", where)
        if content is not None and not content.strip():
            self.fail(f"{where}.content", "is empty: the tutor has nothing to say")
        if "estimatedDuration" in segment:
            self.duration(segment["estimatedDuration"], f"{where}.estimatedDuration")
        if kind == "checkpoint" and "checkpoint" not in segment:
            self.fail(where, "a checkpoint segment needs a `checkpoint` with `prompt` and `question`")
        if "checkpoint" in segment:
            checkpoint = segment["checkpoint"]
            if not isinstance(checkpoint, dict):
                self.fail(f"{where}.checkpoint", "must be an object")
            else:
                for key in ("prompt", "question"):
                    if key not in checkpoint:
                        self.fail(f"{where}.checkpoint", f"`{key}` is missing: write both `prompt` (schema) and `question` (app)")
                    else:
                        self.string(checkpoint, key, f"{where}.checkpoint")

    def assessment(self, assessment, where):
        if not isinstance(assessment, dict):
            self.fail(where, "an assessment must be an object")
            return
        self.identifier(assessment, "id", where)
        kind = self.string(assessment, "type", where)
        if kind is not None and kind not in ASSESSMENT_TYPES:
            self.fail(f"{where}.type", f"{kind!r} is not an assessment type")
        for key in ("prompt", "question"):
            if key not in assessment:
                self.fail(where, f"`{key}` is missing: write both `prompt` (schema) and `question` (app)")
            else:
                self.string(assessment, key, where)
        if kind == "text_entry" and "correctAnswer" not in assessment:
            self.fail(where, "`correctAnswer` is missing: the app reads the answer of a text_entry from it")
        for key in ("correctAnswer", "hint", "feedback"):
            if key in assessment:
                self.string(assessment, key, where)
        if "options" in assessment:
            options = assessment["options"]
            if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
                self.fail(f"{where}.options", "must be an array of plain strings (the app's options)")

    def media(self, media, where):
        if not isinstance(media, dict):
            return
        for group in ("embedded", "reference"):
            for i, item in enumerate(media.get(group) or []):
                place = f"{where}.{group}[{i}]"
                if not isinstance(item, dict):
                    continue
                if "id" in item and not isinstance(item["id"], str):
                    self.fail(f"{place}.id", "a media id is a plain string")
                timing = item.get("segmentTiming")
                if isinstance(timing, dict):
                    for key in ("startSegment", "endSegment"):
                        if not isinstance(timing.get(key), int) or isinstance(timing.get(key), bool):
                            self.fail(f"{place}.segmentTiming", f"`{key}` must be an integer")
                dimensions = item.get("dimensions")
                if isinstance(dimensions, dict):
                    for key in ("width", "height"):
                        if key not in dimensions:
                            self.fail(f"{place}.dimensions", f"`{key}` is missing (the app needs both)")

    def forbidden(self, value, where):
        """`speakingNotes.pauseAfter` anywhere: a boolean in the schema, a string in the app."""
        if isinstance(value, dict):
            notes = value.get("speakingNotes")
            if isinstance(notes, dict) and "pauseAfter" in notes:
                self.fail(f"{where}.speakingNotes.pauseAfter", "leave it out (a boolean in the schema, a string in the app): use pauseDuration")
            for key, child in value.items():
                self.forbidden(child, f"{where}.{key}")
        elif isinstance(value, list):
            for i, child in enumerate(value):
                self.forbidden(child, f"{where}[{i}]")


SHORT_TYPES = {"checkpoint", "summary", "question"}
EXPLAINING_TYPES = {"explanation", "lecture", "content"}
BLOOM_LEVELS = {"remember", "understand", "apply", "analyze", "evaluate", "create"}


def analyzer_problems(doc, alternatives=False):
    """The rules of the UnaMentis server's CurriculumAnalyzer (NOTES.md, "What the importer's own
    quality check looks for"): segments of 100-2,000 characters (checkpoint, summary and question
    segments may be short), objectives on every topic (a bloomLevel from Bloom's six), a
    checkpoint in every topic of 3+ content segments, a time estimate on every topic of more than
    two segments, a root title and description; with `alternatives`, alternativeExplanations on
    explanation/lecture/content segments over 300 characters (they need a model)."""
    lines = []
    if not isinstance(doc, dict):
        return ["$: analyzer: the file must hold one JSON object"]
    root = (doc.get("content") or [{}])[0]
    if not (doc.get("title") or root.get("title")):
        lines.append("$: analyzer: the curriculum has no title")
    if not (doc.get("description") or root.get("description")):
        lines.append("$: analyzer: the curriculum has no description")

    def walk(node, where):
        if not isinstance(node, dict):
            return
        if node.get("type") in TOPIC_TYPES:
            topic(node, where)
        for i, child in enumerate(node.get("children") or []):
            walk(child, f"{where}.children[{i}]")

    def topic(node, where):
        name = f"{where} ({node.get('title', '?')!r})"
        segments = (node.get("transcript") or {}).get("segments") or []
        objectives = node.get("learningObjectives") or []
        if not objectives:
            lines.append(f"{name}: analyzer: no learningObjectives")
        for objective in objectives:
            level = objective.get("bloomLevel", objective.get("bloomsLevel"))
            if level is not None and level not in BLOOM_LEVELS:
                lines.append(f"{name}: analyzer: bloom level {level!r} is not one of Bloom's six")
        content = [s for s in segments if s.get("type") != "checkpoint"]
        checkpoints = [s for s in segments if s.get("type") == "checkpoint" or "checkpoint" in s]
        if len(content) >= 3 and not checkpoints:
            lines.append(f"{name}: analyzer: {len(content)} content segments and no checkpoint")
        if len(segments) > 2 and not (node.get("typicalLearningTime") or node.get("timeEstimates")):
            lines.append(f"{name}: analyzer: {len(segments)} segments and no time estimate")
        for i, segment in enumerate(segments):
            text = segment.get("content") or ""
            kind = segment.get("type")
            place = f"{name}.transcript.segments[{i}]"
            if len(text) > 2000:
                lines.append(f"{place}: analyzer: {len(text)} characters, over 2,000 (too long to follow spoken)")
            if len(text) < 100 and kind not in SHORT_TYPES:
                lines.append(f"{place}: analyzer: {len(text)} characters, under 100")
            if alternatives and kind in EXPLAINING_TYPES and len(text) > 300 and not segment.get("alternativeExplanations"):
                lines.append(f"{place}: analyzer: over 300 characters without alternativeExplanations")

    walk(root, "$.content[0]")
    return lines


def schema_problems(validator, doc):
    lines = []
    for error in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        lines.append(f"{path}: schema: {error.message}")
    return lines


def main(argv):
    parser = argparse.ArgumentParser(description="Check UMCF files against the schema and the UnaMentis app's rules.")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--schema", type=Path, default=None, help="umcf-schema.json (default: ../shared/formats/umcf)")
    parser.add_argument("--no-schema", action="store_true", help="check the app's rules only")
    parser.add_argument("--analyzer", action="store_true",
                        help="also apply the importer's CurriculumAnalyzer rules (segment length, objectives, checkpoints, times)")
    parser.add_argument("--alternatives", action="store_true",
                        help="with --analyzer, also ask for alternativeExplanations (written only with a model)")
    args = parser.parse_args(argv)

    validator = None
    if not args.no_schema:
        schema_path = args.schema or default_schema()
        try:
            import jsonschema
        except ImportError:
            print("umcf_check: jsonschema is not installed (make testdeps)", file=sys.stderr)
            return 2
        if not schema_path.is_file():
            print(f"umcf_check: {schema_path}: no such schema (set UMCF_SCHEMA or pass --schema)", file=sys.stderr)
            return 2
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)

    failed = False
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as handle:
                doc = json.load(handle)
        except (OSError, ValueError) as error:
            print(f"{name}: cannot be read as JSON: {error}")
            failed = True
            continue
        checker = Checker()
        checker.check(doc)
        problems = checker.problems + (schema_problems(validator, doc) if validator else [])
        if args.analyzer:
            problems += analyzer_problems(doc, alternatives=args.alternatives)
        for problem in problems:
            print(f"{name}: {problem}")
        if problems:
            failed = True
        else:
            print(f"{name}: valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
