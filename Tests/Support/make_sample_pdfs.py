#!/usr/bin/env python3
"""Writes the project's own sample PDFs in corpora/pdf with the Python standard library only.

    python3 Tests/Support/make_sample_pdfs.py corpora/pdf

cell-biology-notes.pdf: three A4 pages of lecture notes with an outline (bookmarks), a running
header and a page-number footer, a title, numbered headings in two sizes, a bullet list, a
figure caption, a word hyphenated across a line end ("phospho-" + "lipids") and a real compound
broken at its hyphen ("self-" + "assembling", written whole elsewhere).
calculus-handout.pdf: one US-letter page in two columns under a full-width title, no outline.
membrane-transport-guide.pdf: one A4 page whose outline points at run-in headings (a bold term
that starts its paragraph: "Osmosis. Water moves ..."), short and long.
genetics-primer.pdf: two A4 pages with headings in two sizes and no outline, and a placeholder
title ("Untitled") in the info dictionary, so the title is the largest text on page 1.

With --fixtures, the test fixtures into another folder (Tests/Fixtures/pdf: corpora/ is the
demo's, and these files would fail or warn in its ingest):

    python3 Tests/Support/make_sample_pdfs.py --fixtures Tests/Fixtures/pdf

locked-handout.pdf and locked-primer.pdf: the calculus handout and the genetics primer encrypted
with the standard security handler (RC4, 128-bit, revision 3) under the user passwords
"handout-pass" and "primer-pass", each with its own fixed file id, so the bytes are the same on
every run. image-only.pdf: one page holding a grey image and no text, as a scan without a text
layer looks to a reader.
"""
import hashlib
import sys
import textwrap


def escape(text):
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


class Page:
    def __init__(self, width, height):
        self.width, self.height, self.ops = width, height, []

    def text(self, x, y, size, line, bold=False):
        font = "F2" if bold else "F1"
        self.ops.append(f"BT /{font} {size} Tf {x:.1f} {self.height - y:.1f} Td ({escape(line)}) Tj ET")

    def runs(self, x, y, size, pieces):
        """One line set in several fonts: [(text, bold)], each piece where the last one ended."""
        shown = " ".join(f"/{'F2' if bold else 'F1'} {size} Tf ({escape(text)}) Tj" for text, bold in pieces)
        self.ops.append(f"BT {x:.1f} {self.height - y:.1f} Td {shown} ET")

    def paragraph(self, x, y, size, lines, leading=1.35):
        for line in lines:
            self.text(x, y, size, line)
            y += size * leading
        return y + size * 0.6


def wrap(text, width):
    return textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False)


# The standard security handler (ISO 32000-1, 7.6.3): the 32-byte password padding and RC4.
PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


def rc4(key, data):
    state = list(range(256))
    j = 0
    for i in range(256):
        j = (j + state[i] + key[i % len(key)]) % 256
        state[i], state[j] = state[j], state[i]
    out, i, j = bytearray(), 0, 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + state[i]) % 256
        state[i], state[j] = state[j], state[i]
        out.append(byte ^ state[(state[i] + state[j]) % 256])
    return bytes(out)


class Encryption:
    """RC4 128-bit, revision 3 (algorithms 2, 3 and 5 of ISO 32000-1)."""
    PERMISSIONS = -4  # everything allowed

    def __init__(self, user, owner, file_id):
        self.file_id = file_id
        padded = lambda password: (password.encode("latin-1") + PAD)[:32]
        digest = hashlib.md5(padded(owner)).digest()
        for _ in range(50):
            digest = hashlib.md5(digest).digest()
        owner_key = digest[:16]
        self.o = padded(user)
        for i in range(20):
            self.o = rc4(bytes(b ^ i for b in owner_key), self.o)
        digest = hashlib.md5(padded(user) + self.o + self.PERMISSIONS.to_bytes(4, "little", signed=True) + file_id).digest()
        for _ in range(50):
            digest = hashlib.md5(digest[:16]).digest()
        self.key = digest[:16]
        u = hashlib.md5(PAD + file_id).digest()
        for i in range(20):
            u = rc4(bytes(b ^ i for b in self.key), u)
        self.u = u + bytes(16)

    def dictionary(self):
        return (f"<< /Filter /Standard /V 2 /R 3 /Length 128 /P {self.PERMISSIONS} "
                f"/O <{self.o.hex()}> /U <{self.u.hex()}> >>")

    def crypt(self, number, data):
        key = hashlib.md5(self.key + number.to_bytes(3, "little") + bytes(2)).digest()[:16]
        return rc4(key, data)

    def object(self, number, body):
        """The object with its stream and literal strings encrypted (strings as hex)."""
        if isinstance(body, bytes):
            head, rest = body.split(b"stream\n", 1)
            stream = rest[:-len(b"\nendstream")]
            # RC4 keeps the length, so /Length stands.
            return head + b"stream\n" + self.crypt(number, stream) + b"\nendstream"
        out, i = [], 0
        while i < len(body):
            if body[i] != "(":
                out.append(body[i])
                i += 1
                continue
            depth, i, raw = 1, i + 1, bytearray()
            while depth:
                c = body[i]
                if c == "\\":
                    raw += {"n": b"\n", "r": b"\r", "t": b"\t", "(": b"(", ")": b")", "\\": b"\\"}.get(body[i + 1], body[i + 1].encode("latin-1"))
                    i += 2
                    continue
                depth += {"(": 1, ")": -1}.get(c, 0)
                if depth:
                    raw += c.encode("latin-1")
                i += 1
            out.append("<" + self.crypt(number, bytes(raw)).hex() + ">")
        return "".join(out)


def write_pdf(path, pages, outline=None, title=None, author=None, encryption=None):
    objects = []

    def add(body):
        objects.append(body)
        return len(objects)

    catalog = add(None)
    pages_id = add(None)
    font1 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    font2 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    page_ids = []
    for page in pages:
        stream = "\n".join(page.ops).encode("latin-1")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        page_ids.append(add(f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 {page.width} {page.height}] "
                            f"/Resources << /Font << /F1 {font1} 0 R /F2 {font2} 0 R >> >> /Contents {content} 0 R >>"))
    objects[pages_id - 1] = f"<< /Type /Pages /Kids [{' '.join(f'{i} 0 R' for i in page_ids)}] /Count {len(page_ids)} >>"
    outline_ref = ""
    if outline:
        # outline: [(title, page_index, y_from_top, [children...])]
        root = add(None)

        def build(entries, parent):
            ids = [add(None) for _ in entries]
            for i, (label, page_index, y, children) in enumerate(entries):
                page = pages[page_index]
                fields = [f"/Title ({escape(label)})", f"/Parent {parent} 0 R",
                          f"/Dest [{page_ids[page_index]} 0 R /XYZ 0 {page.height - y + 20:.1f} 0]"]
                if i > 0:
                    fields.append(f"/Prev {ids[i - 1]} 0 R")
                if i + 1 < len(ids):
                    fields.append(f"/Next {ids[i + 1]} 0 R")
                if children:
                    first, last, count = build(children, ids[i])
                    fields += [f"/First {first} 0 R", f"/Last {last} 0 R", f"/Count {count}"]
                objects[ids[i] - 1] = "<< " + " ".join(fields) + " >>"
            return ids[0], ids[-1], len(ids)

        first, last, count = build(outline, root)
        objects[root - 1] = f"<< /Type /Outlines /First {first} 0 R /Last {last} 0 R /Count {count} >>"
        outline_ref = f" /Outlines {root} 0 R /PageMode /UseOutlines"
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_id} 0 R{outline_ref} >>"
    info = []
    if title:
        info.append(f"/Title ({escape(title)})")
    if author:
        info.append(f"/Author ({escape(author)})")
    info_id = add("<< " + " ".join(info) + " /Producer (lectern make_sample_pdfs.py) >>")

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    trailer = ""
    if encryption:
        objects = [encryption.object(number, body) for number, body in enumerate(objects, start=1)]
        encrypt_id = add(encryption.dictionary())
        trailer = f" /Encrypt {encrypt_id} 0 R /ID [<{encryption.file_id.hex()}> <{encryption.file_id.hex()}>]"
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        data = body if isinstance(body, bytes) else body.encode("latin-1")
        out += b"%d 0 obj\n" % number + data + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info_id} 0 R{trailer} >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode("latin-1")
    with open(path, "wb") as f:
        f.write(out)


def cell_biology(path):
    W, H = 595, 842
    pages = [Page(W, H) for _ in range(3)]
    for number, page in enumerate(pages, start=1):
        page.text(72, 40, 8, "BIO 101 - Cell Biology Lecture Notes - Spring term")
        page.text(W / 2 - 20, H - 36, 8, f"Page {number} of 3")
    p1, p2, p3 = pages
    y = 90
    p1.text(72, y, 22, "Cell Biology: Lecture Notes", bold=True)
    y += 26
    p1.text(72, y, 11, "Dr. Amina Okafor, Department of Biology")
    y += 40
    p1.text(72, y, 16, "1 The Cell Membrane", bold=True)
    y += 26
    y = p1.paragraph(72, y, 10.5, [
        "Every cell is enclosed by a plasma membrane that separates its contents from the",
        "outside world. The membrane is a bilayer of phospho-",
        "lipids whose hydrophilic heads face the water on both sides while their hydro-",
        "phobic tails point inward, away from the water.",
    ])
    y = p1.paragraph(72, y, 10.5, [
        "Proteins float in this fluid bilayer like icebergs in a sea. Because the lipids are",
        "self-assembling, a torn membrane reseals on its own; self-",
        "assembling structures like this are common in biology.",
    ])
    y += 8
    p1.text(72, y, 13, "1.1 Transport across the membrane", bold=True)
    y += 22
    y = p1.paragraph(72, y, 10.5, ["Small molecules cross the membrane in several ways:"])
    for item in ["- Diffusion moves molecules from high to low concentration without energy.",
                 "- Osmosis is the diffusion of water through a selectively permeable membrane.",
                 "- Active transport pumps ions against their gradient using ATP."]:
        y = p1.paragraph(84, y, 10.5, [item], leading=1.2)

    y = 90
    p2.text(72, y, 16, "2 Mitochondria", bold=True)
    y += 26
    y = p2.paragraph(72, y, 10.5, wrap(
        "Mitochondria are the power plants of the cell. They carry out aerobic respiration, "
        "oxidising pyruvate and fatty acids to carbon dioxide and water, and they store the "
        "released energy as ATP. A mitochondrion has an outer membrane and a folded inner "
        "membrane whose folds, the cristae, hold the electron transport chain.", 88))
    y = p2.paragraph(72, y, 10.5, wrap(
        "Mitochondria carry their own circular DNA and divide independently of the cell. This "
        "is strong evidence for the endosymbiotic theory: they descend from bacteria that were "
        "engulfed by an ancestral cell more than a billion years ago.", 88))
    y += 40
    p2.text(72, y, 9, "Figure 1. A mitochondrion in cross-section, showing the cristae of the inner membrane.")
    y += 30
    p2.text(72, y, 13, "2.1 Oxidative phosphorylation", bold=True)
    y += 22
    p2.paragraph(72, y, 10.5, wrap(
        "Electrons from NADH pass along the transport chain, pumping protons into the space "
        "between the membranes. The protons flow back through ATP synthase, which couples their "
        "movement to the synthesis of ATP.", 88))

    y = 90
    p3.text(72, y, 16, "3 The Nucleus", bold=True)
    y += 26
    y = p3.paragraph(72, y, 10.5, wrap(
        "The nucleus holds the cell's chromosomes and is enclosed by a double membrane, the "
        "nuclear envelope, pierced by nuclear pores that control what enters and leaves. Inside, "
        "the nucleolus assembles ribosomal subunits.", 88))
    p3.paragraph(72, y, 10.5, wrap(
        "During interphase the DNA is loosely packed as chromatin so that genes can be "
        "transcribed; before division it condenses into compact chromosomes.", 88))
    outline = [
        ("1 The Cell Membrane", 0, 156, [("1.1 Transport across the membrane", 0, 330, [])]),
        ("2 Mitochondria", 1, 90, [("2.1 Oxidative phosphorylation", 1, 330, [])]),
        ("3 The Nucleus", 2, 90, []),
    ]
    write_pdf(path, pages, outline=outline, title="Cell Biology: Lecture Notes", author="Amina Okafor")


def calculus(path, encryption=None):
    W, H = 612, 792
    page = Page(W, H)
    page.text(150, 80, 20, "Calculus Handout: Derivatives and Integrals", bold=True)
    left = wrap(
        "The derivative of a function measures how fast its value changes as its input changes. "
        "Geometrically it is the slope of the tangent line to the graph. The power rule says that "
        "the derivative of x to the n is n times x to the n minus one. The product rule and the "
        "quotient rule handle products and quotients, and the chain rule handles compositions of "
        "functions. Derivatives locate maxima and minima: at an interior extremum of a smooth "
        "function the derivative is zero.", 44)
    right = wrap(
        "The definite integral adds up infinitely many infinitely small pieces and gives the "
        "signed area under a curve. The fundamental theorem of calculus links the two ideas: "
        "integration and differentiation undo each other, so an integral can be computed from any "
        "antiderivative. Substitution reverses the chain rule, and integration by parts reverses "
        "the product rule. Integrals give areas, volumes, work and averages.", 44)
    page.text(72, 130, 13, "Derivatives", bold=True)
    page.paragraph(72, 152, 10, left)
    page.text(330, 130, 13, "Integrals", bold=True)
    page.paragraph(330, 152, 10, right)
    write_pdf(path, [page], title="Calculus Handout", author="Lectern sample", encryption=encryption)


def membrane_transport(path):
    W, H = 595, 842
    page = Page(W, H)
    page.text(72, 90, 20, "Membrane Transport: A Study Guide", bold=True)
    y = page.paragraph(72, 124, 10.5, wrap(
        "Cells trade substances with their surroundings all the time. This guide lists the ways "
        "molecules cross the plasma membrane, passive ones first.", 88))
    tops = {}

    def heading(label, y):
        tops[label] = y
        page.text(72, y, 15, label, bold=True)
        return y + 26

    def run_in(term, body, y):
        # The term in bold, the body in the regular face, on the same first line.
        tops[term] = y
        lines = wrap(term + ". " + body, 88)
        first_body = lines[0][len(term) + 1:]
        page.runs(72, y, 10.5, [(term + ".", True), (first_body, False)])
        y = page.paragraph(72, y + 10.5 * 1.35, 10.5, lines[1:]) if len(lines) > 1 else y + 10.5 * 1.35
        return y + 12

    y = heading("1 Passive transport", y + 14)
    y = run_in("Diffusion", "Molecules spread from crowded places to sparse ones, and the cell spends no energy on it.", y)
    y = run_in("Osmosis", "Water crosses a selectively permeable membrane toward the side holding more dissolved solute.", y)
    y = heading("2 Active transport", y + 14)
    y = run_in("Pumps", "The sodium-potassium ATPase spends ATP to push ions against their gradients, keeping potassium high inside.", y)
    run_in("Endocytosis", "Large particles enter when the membrane folds inward around them and pinches off a vesicle. "
           "White blood cells engulf whole bacteria this way, a form called phagocytosis, and most cells "
           "take up droplets of fluid the same way.", y)
    outline = [
        ("1 Passive transport", 0, tops["1 Passive transport"], [("Diffusion", 0, tops["Diffusion"], []), ("Osmosis", 0, tops["Osmosis"], [])]),
        ("2 Active transport", 0, tops["2 Active transport"], [("Pumps", 0, tops["Pumps"], []), ("Endocytosis", 0, tops["Endocytosis"], [])]),
    ]
    write_pdf(path, [page], outline=outline, title="Membrane Transport: A Study Guide", author="Lectern sample")


def genetics(path, encryption=None):
    W, H = 595, 842
    p1, p2 = Page(W, H), Page(W, H)
    p1.text(72, 90, 22, "Genetics Primer: Genes and Inheritance", bold=True)
    p1.text(72, 118, 10.5, "Prepared for the first-year genetics seminar")
    y = 160
    p1.text(72, y, 16, "1 Genes", bold=True)
    y = p1.paragraph(72, y + 26, 10.5, wrap(
        "A gene is a stretch of DNA that holds the recipe for one protein or one functional RNA. "
        "Humans carry roughly twenty thousand protein-coding genes spread over twenty-three pairs "
        "of chromosomes.", 88))
    y += 8
    p1.text(72, y, 13, "1.1 The double helix", bold=True)
    y = p1.paragraph(72, y + 22, 10.5, wrap(
        "DNA is two strands wound around each other. Adenine pairs with thymine and guanine pairs "
        "with cytosine, so either strand is a template for the other.", 88))
    y += 8
    p1.text(72, y, 13, "1.2 Mutations", bold=True)
    p1.paragraph(72, y + 22, 10.5, wrap(
        "A mutation is a change in the sequence. Most are harmless, some break a protein, and a "
        "few give an advantage that natural selection can spread.", 88))
    y = 90
    p2.text(72, y, 16, "2 Inheritance", bold=True)
    y = p2.paragraph(72, y + 26, 10.5, wrap(
        "Each parent passes on one copy of every chromosome, so a child carries two versions, two "
        "alleles, of most genes.", 88))
    y += 8
    p2.text(72, y, 13, "2.1 Dominant and recessive alleles", bold=True)
    p2.paragraph(72, y + 22, 10.5, wrap(
        "A dominant allele shows its trait with one copy; a recessive allele only when both copies "
        "are recessive. Two carriers of a recessive trait have a one in four chance of a child who "
        "shows it.", 88))
    write_pdf(path, [p1, p2], title="Untitled", author="Lectern sample", encryption=encryption)


def image_only(path):
    side = 16
    pixels = bytes((x * 13 + y * 7) % 256 for y in range(side) for x in range(side))
    content = b"q 300 0 0 300 150 300 cm /Im1 Do Q"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Length %d >>\nstream\n"
        % (side, side, len(pixels)) + pixels + b"\nendstream",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    with open(path, "wb") as f:
        f.write(out)


def fixtures(out):
    # The file ids are fixed (an MD5 of the name), so the bytes are the same on every run.
    file_id = lambda name: hashlib.md5(name.encode()).digest()
    calculus(f"{out}/locked-handout.pdf", Encryption("handout-pass", "lectern-owner", file_id("locked-handout.pdf")))
    genetics(f"{out}/locked-primer.pdf", Encryption("primer-pass", "lectern-owner", file_id("locked-primer.pdf")))
    image_only(f"{out}/image-only.pdf")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixtures"]:
        fixtures(sys.argv[2] if len(sys.argv) > 2 else "Tests/Fixtures/pdf")
        sys.exit(0)
    out = sys.argv[1] if len(sys.argv) > 1 else "corpora/pdf"
    cell_biology(f"{out}/cell-biology-notes.pdf")
    calculus(f"{out}/calculus-handout.pdf")
    membrane_transport(f"{out}/membrane-transport-guide.pdf")
    genetics(f"{out}/genetics-primer.pdf")
