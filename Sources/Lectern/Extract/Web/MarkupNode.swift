import CLibXML2
import Foundation

/// One node of a parsed document: a small, read-only view over a libxml2 node that keeps its
/// document alive. Element names are lower-cased local names (no namespace prefix).
// Safe: a read-only pointer into a `MarkupDocument`'s tree, which it keeps alive and nobody changes.
struct MarkupNode: @unchecked Sendable {
    let pointer: xmlNodePtr
    let document: MarkupDocument

    init(_ pointer: xmlNodePtr, _ document: MarkupDocument) {
        self.pointer = pointer
        self.document = document
    }

    var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }
    var isText: Bool { pointer.pointee.type == XML_TEXT_NODE || pointer.pointee.type == XML_CDATA_SECTION_NODE }
    var isEntityReference: Bool { pointer.pointee.type == XML_ENTITY_REF_NODE }

    /// `p`, `h2`, `para` … ; empty for text nodes.
    var name: String {
        guard isElement, let raw = pointer.pointee.name else { return "" }
        return String(cString: raw).lowercased()
    }

    var children: [MarkupNode] {
        var result: [MarkupNode] = []
        var child = pointer.pointee.children
        while let node = child {
            result.append(MarkupNode(node, document))
            child = node.pointee.next
        }
        return result
    }

    var elementChildren: [MarkupNode] { children.filter(\.isElement) }

    var parent: MarkupNode? {
        guard let parent = pointer.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return MarkupNode(parent, document)
    }

    func attribute(_ name: String) -> String? {
        guard isElement, let value = lazy_xmlGetProp(pointer, name) else { return nil }
        defer { lectern_xml_free(value) }
        return String(cString: value)
    }

    var id: String? { attribute("id") }

    var classes: [Substring] { (attribute("class") ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) }

    func hasClass(_ name: String) -> Bool { classes.contains { $0 == name } }

    /// The raw text of a text node (nothing for elements).
    var content: String {
        guard isText, let raw = pointer.pointee.content else { return "" }
        return String(cString: raw)
    }

    /// All text below this node, in order. Internal entity references read as their
    /// replacement text; external ones as nothing (they are never loaded).
    var text: String {
        var out = ""
        appendText(to: &out)
        return out
    }

    private func appendText(to out: inout String) {
        if let characters {
            out += characters
        } else if isElement {
            for child in children { child.appendText(to: &out) }
        }
    }

    /// The text a text node or an entity reference stands for; nil for anything else (an
    /// element, a comment), whose text, if any, is in its children.
    var characters: String? {
        if isText { return content }
        if isEntityReference { return Self.internalEntityText(pointer) }
        return nil
    }

    /// The replacement text of an internal general entity; "" for an external one.
    static func internalEntityText(_ reference: xmlNodePtr) -> String {
        guard let name = reference.pointee.name, let doc = reference.pointee.doc,
              let entity = lazy_xmlGetDocEntity(doc, name) else { return "" }
        guard entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY || entity.pointee.etype == XML_INTERNAL_PREDEFINED_ENTITY,
              let content = entity.pointee.content else { return "" }
        return String(cString: content)
    }

    /// The first descendant (or self) in document order that satisfies `predicate`.
    func first(where predicate: (MarkupNode) -> Bool) -> MarkupNode? {
        if isElement, predicate(self) { return self }
        for child in children where child.isElement {
            if let found = child.first(where: predicate) { return found }
        }
        return nil
    }

    /// Every descendant element (and self) that satisfies `predicate`, in document order.
    func all(where predicate: (MarkupNode) -> Bool) -> [MarkupNode] {
        var result: [MarkupNode] = []
        collect(predicate, into: &result)
        return result
    }

    private func collect(_ predicate: (MarkupNode) -> Bool, into result: inout [MarkupNode]) {
        if isElement, predicate(self) { result.append(self) }
        for child in children where child.isElement { child.collect(predicate, into: &result) }
    }

    func child(_ name: String) -> MarkupNode? { elementChildren.first { $0.name == name } }

    func children(_ name: String) -> [MarkupNode] { elementChildren.filter { $0.name == name } }

    /// True when this node or one of its ancestors satisfies `predicate`.
    func isInside(_ predicate: (MarkupNode) -> Bool) -> Bool {
        var node: MarkupNode? = self
        while let current = node {
            if predicate(current) { return true }
            node = current.parent
        }
        return false
    }
}
