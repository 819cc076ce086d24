import ToDoModel
import ToDoStorage

/// Looks an address up on a Nominatim-compatible search endpoint
/// (`GET {endpoint}?q=ADDRESS&format=jsonv2&limit=1`) and takes the first result's coordinate:
/// the book's geocoding of the input form's address.
public struct Geocoder: Sendable {
    /// The search endpoint, as `https://nominatim.openstreetmap.org/search`.
    public let endpoint: WebAddress
    public let transport: HTTPTransport
    /// Names the program to the server, as Nominatim's usage policy asks.
    public let userAgent: String
    /// Seconds before the look-up is given up.
    public let timeout: Double

    public init(endpoint: WebAddress, transport: HTTPTransport, userAgent: String, timeout: Double) {
        self.endpoint = endpoint
        self.transport = transport
        self.userAgent = userAgent
        self.timeout = timeout
    }

    /// The largest answer taken: one place is a few hundred bytes, and a page of them a few KB.
    public static let maximumAnswerBytes = 4 << 20

    /// The first place found for `address`.
    public func place(for address: String) throws(GeocodingError) -> GeocodedPlace {
        let url = endpoint.appendingQuery([("q", address), ("format", "jsonv2"), ("limit", "1")])
        let response: HTTPResponse
        do {
            response = try transport.send(
                HTTPRequest(
                    url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"],
                    timeout: timeout, maximumBodyBytes: Self.maximumAnswerBytes))
        } catch {
            throw .transport(error)
        }
        guard response.isSuccess else { throw .status(response.status) }
        return try Self.firstPlace(in: response.body)
    }

    /// Reads `[{"lat": "…", "lon": "…", "display_name": "…"}, …]`; latitude and longitude may be
    /// strings (as Nominatim sends them) or numbers.
    static func firstPlace(in body: [UInt8]) throws(GeocodingError) -> GeocodedPlace {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .badResponse("not JSON: \(error)")
        }
        guard case .array(let results) = json else {
            throw .badResponse("expected an array of places, found \(json.kindDescription)")
        }
        guard let first = results.first else { throw .noResult }
        guard case .object(let place) = first else {
            throw .badResponse("expected a place object, found \(first.kindDescription)")
        }
        func degrees(_ key: String) throws(GeocodingError) -> Double {
            switch place[key] {
            case .string(let text)?:
                if let value = Double(text), value.isFinite { return value }
                throw .badResponse("\"\(key)\" is not a number: \"\(text)\"")
            case .number(let literal)?:
                if let value = Double(literal), value.isFinite { return value }
                throw .badResponse("\"\(key)\" is not a number")
            case nil:
                throw .badResponse("the place has no \"\(key)\"")
            case let other?:
                throw .badResponse("\"\(key)\" is \(other.kindDescription), not a number")
            }
        }
        let coordinate = Coordinate(latitude: try degrees("lat"), longitude: try degrees("lon"))
        guard coordinate.isValid else {
            throw .badResponse("the coordinate \(coordinate.latitude),\(coordinate.longitude) is out of range")
        }
        var name: String?
        if case .string(let text)? = place["display_name"] { name = text }
        return GeocodedPlace(coordinate: coordinate, displayName: name)
    }
}

/// A place the geocoder found.
public struct GeocodedPlace: Equatable, Sendable {
    public var coordinate: Coordinate
    /// The server's name for the place, as "12, Market Street, Springfield, …".
    public var displayName: String?

    public init(coordinate: Coordinate, displayName: String? = nil) {
        self.coordinate = coordinate
        self.displayName = displayName
    }
}

/// Why an address could not be looked up.
public enum GeocodingError: Error, Equatable, Sendable {
    /// No answer: no connection, a timeout.
    case transport(HTTPError)
    /// The server answered with an error status.
    case status(Int)
    /// The answer is not the expected JSON.
    case badResponse(String)
    /// The server found no place.
    case noResult
}

extension GeocodingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .transport(let error): return "the geocoder could not be reached: \(error)"
        case .status(let status): return "the geocoder answered HTTP \(status)"
        case .badResponse(let reason): return "the geocoder's answer cannot be read: \(reason)"
        case .noResult: return "the geocoder found no place"
        }
    }
}
