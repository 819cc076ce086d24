import ToDoModel
import ToDoStorage

/// An element of an XML document, named by its namespace URI and local name (a prefix is only
/// the document's way of writing the URI: Radicale writes `<multistatus xmlns="DAV:">`, Xandikos
/// `<ns0:multistatus xmlns:ns0="DAV:">`, and both are the same element). What WebDAV answers
/// (RFC 4918 multistatus) is read into these.
public struct XMLElement: Equatable, Sendable {
    public var namespace: String
    public var name: String
    /// Attributes without a prefix, by name (`<C:comp name="VTODO"/>`); prefixed ones by `prefix:name`.
    public var attributes: [String: String]
    public var children: [XMLElement]
    /// The character data directly inside the element, references resolved, CDATA as it is.
    public var text: String

    public init(
        namespace: String, name: String, attributes: [String: String] = [:], children: [XMLElement] = [],
        text: String = ""
    ) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The first child named `name` in `namespace`.
    public func child(_ namespace: String, _ name: String) -> XMLElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Every child named `name` in `namespace`, in document order.
    public func children(_ namespace: String, _ name: String) -> [XMLElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }
}

/// Why bytes are not an XML document todo reads, and where.
public struct XMLSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    /// Bytes from the start of the document.
    public var byteOffset: Int

    public var description: String { "\(reason) at byte \(byteOffset)" }
}
