/// The data file's contents: `{"version": 1, "nextNumber": N, "items": [...]}` plus any top-level
/// fields a newer or other program wrote, or the book app's bare array of items.
struct StoreDocument {
    /// The format version this program writes, and the newest it reads.
    static let currentVersion = 1

    var nextNumber: Int?
    var items: [ToDoItem]
    var unknownFields = JSONObject()

    init(items: [ToDoItem] = [], nextNumber: Int? = nil) {
        self.items = items
        self.nextNumber = nextNumber
    }

    /// Reads a document, throwing `invalidContent` or `unsupportedVersion` naming `file`.
    init(json: JSONValue, file: String) throws(StoreError) {
        do {
            if case .array = json {
                items = try Self.items(from: json, path: "")
                return
            }
            var reader = try JSONObjectReader(json, path: "")
            let version = try reader.int("version") ?? Self.currentVersion
            if version > Self.currentVersion {
                throw StoreError.unsupportedVersion(file: file, version: version, supported: Self.currentVersion)
            }
            guard version >= 1 else { throw reader.invalid("version", "\(version) is not a format version") }
            nextNumber = try reader.int("nextNumber", in: 1...ToDoItem.largestNumber + 1)
            items = try reader.value("items").map { value throws(JSONShapeError) in
                try Self.items(from: value, path: "items")
            } ?? []
            unknownFields = reader.unknownFields
        } catch let error as StoreError {
            throw error
        } catch let error as JSONShapeError {
            let reason = error.path.isEmpty && error.reason.hasPrefix("expected an object")
                ? "expected an object or an array of items" : error.description
            throw .invalidContent(file: file, reason: reason)
        } catch {
            throw .invalidContent(file: file, reason: String(describing: error))
        }
    }

    private static func items(from json: JSONValue, path: String) throws(JSONShapeError) -> [ToDoItem] {
        guard case .array(let elements) = json else {
            throw JSONShapeError(path: path, reason: "expected an array, found \(json.kindDescription)")
        }
        var items: [ToDoItem] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            items.append(try ToDoItem(json: element, path: "\(path)[\(index)]"))
        }
        return items
    }

    /// The document as the store writes it: version, next number, items, then unknown fields.
    var json: JSONValue {
        var object = JSONObject()
        object["version"] = .number(Self.currentVersion)
        object["nextNumber"] = nextNumber.map(JSONValue.number)
        object["items"] = .array(items.map(\.json))
        object.merge(unknownFields)
        return .object(object)
    }
}
