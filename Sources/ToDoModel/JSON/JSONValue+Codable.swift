/// Lets a `JSONValue` pass through any `Encoder` or `Decoder`, which is how the model types offer
/// `Codable` on top of their one JSON mapping.
extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        package let stringValue: String
        package var intValue: Int? { nil }
        package init(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: MemberKey.self) {
            var object = JSONObject()
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd {
                elements.append(try container.decode(JSONValue.self))
            }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? container.decode(Int64.self) {
                self = .number(String(int))
            } else if let double = try? container.decode(Double.self) {
                self = .number(double)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .number(let literal):
            var container = encoder.singleValueContainer()
            if let int = Int64(literal) {
                try container.encode(int)
            } else {
                try container.encode(Double(literal) ?? 0)
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in object.members {
                try container.encode(value, forKey: MemberKey(stringValue: key))
            }
        }
    }
}
