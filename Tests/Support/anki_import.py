#!/usr/bin/env python3
"""Imports Lectern's exports into a REAL Anki collection and prints what Anki holds, as JSON.

  anki_import.py COLLECTION FILE [FILE ...] [--review GUID ...]

COLLECTION is an .anki2 file (made fresh when missing, kept between calls so a second import
meets the first); each FILE is an .apkg or a .tsv/.csv in Anki's text-import format.
--review GUID answers every card of that note "Good" through Anki's scheduler first, so a test
can check the review state survives the next import. Output: notes, cards, decks (name and
description), note types with fields, every note (guid, type, fields, tags, mod, deck) and its
cards' review state (type, queue, interval, reps).
"""
import json
import sys


def main(argv):
    from anki.collection import Collection, ImportAnkiPackageRequest, ImportAnkiPackageOptions
    from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition, CsvMetadata

    args = argv[1:]
    review = []
    if "--review" in args:
        at = args.index("--review")
        review = args[at + 1:]
        args = args[:at]
    path, files = args[0], args[1:]
    col = Collection(path)
    try:
        logs = []
        for name in files:
            if name.endswith(".apkg"):
                options = ImportAnkiPackageOptions(
                    with_scheduling=True, with_deck_configs=False,
                    update_notes=ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER,
                    update_notetypes=ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER)
                out = col.import_anki_package(ImportAnkiPackageRequest(package_path=name, options=options))
            else:
                from anki.collection import ImportCsvRequest
                metadata = col.get_csv_metadata(path=name, delimiter=None)
                metadata.dupe_resolution = CsvMetadata.DupeResolution.UPDATE
                out = col.import_csv(ImportCsvRequest(path=name, metadata=metadata))
            log = out.log
            logs.append({
                "file": name, "new": len(log.new), "updated": len(log.updated), "duplicate": len(log.duplicate),
                "conflicting": len(log.conflicting), "first_field_match": len(log.first_field_match),
                "missing_notetype": len(log.missing_notetype), "missing_deck": len(log.missing_deck),
                "empty_first_field": len(log.empty_first_field),
            })
        for guid in review:
            nid = col.db.scalar("select id from notes where guid = ?", guid)
            if nid is None:
                raise SystemExit(f"no note with guid {guid}")
            for cid in col.db.list("select id from cards where nid = ?", nid):
                card = col.get_card(cid)
                card.start_timer()
                col.sched.answerCard(card, 3)
        print(json.dumps(snapshot(col, logs), sort_keys=True))
    finally:
        col.close()


def snapshot(col, logs):
    decks = {d["id"]: d for d in col.decks.all()}
    notetypes = {m["id"]: m for m in col.models.all()}
    notes = []
    for nid in col.db.list("select id from notes order by id"):
        note = col.get_note(nid)
        cards = []
        for card in note.cards():
            cards.append({"ord": card.ord, "deck": decks[card.did]["name"], "type": card.type, "queue": card.queue,
                          "ivl": card.ivl, "reps": card.reps, "due": card.due})
        notes.append({"guid": note.guid, "notetype": notetypes[note.mid]["name"], "mod": note.mod,
                      "fields": dict(note.items()), "tags": note.tags, "cards": cards})
    return {
        "imports": logs,
        "note_count": col.note_count(),
        "card_count": col.card_count(),
        "decks": sorted([{"name": d["name"], "desc": d.get("desc", "")} for d in decks.values()], key=lambda d: d["name"]),
        "notetypes": sorted([{"name": m["name"], "fields": [f["name"] for f in m["flds"]], "type": m["type"]}
                             for m in notetypes.values()], key=lambda m: m["name"]),
        "notes": notes,
        "revlog": col.db.scalar("select count() from revlog"),
    }


if __name__ == "__main__":
    main(sys.argv)
