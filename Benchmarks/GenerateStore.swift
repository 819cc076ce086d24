// Writes a realistic list of N items as JSON to standard output: titles of a few words, half with a
// description, two thirds with a due date, a fifth with a location (address and coordinate), a third
// with a priority, half with one to three tags, a tenth subtasks, a tenth with a start date, a tenth
// repeating, and a quarter done; of the due dates, four in five are whole days and one a time. The
// same N always gives the same list. Usage: generate-store N [python|todo] [VERSION] [reminders]
// With `reminders`, every tenth item with a due date has a reminder 15 minutes before it (and the
// list is otherwise the same).
// With `python`, the list is laid out as Python's json.dump(sort_keys=True) writes it: keys sorted
// (so "items" comes before "version"), ", " and ": " between members, non-ASCII as \u escapes.
// VERSION 1 (the default) keeps a whole day as its midnight in UTC with "allDay"; 2 as its date.
import Foundation

var state: UInt64 = 0x5EED
func random(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
}

let verbs = ["Call", "Buy", "Write", "Fix", "Plan", "Book", "Send", "Review", "Clean", "Pay", "Email", "Read"]
let things = [
    "Mom", "milk", "the report", "the bike", "a trip to Lisbon", "the dentist", "invoices", "the garden",
    "the kitchen", "rent", "the team", "chapter 3", "Grüße an Jörg", "the café order", "tickets"
]
let places = [
    ("Office", "1 Infinite Loop, Cupertino", 37.33182, -122.03118),
    ("Home", "12 Market St, Springfield", 39.7817, -89.6501),
    ("Shop", "Hauptstraße 5, Berlin", 52.520008, 13.404954), ("Gym", "221B Baker St, London", 51.523767, -0.158555)
]

func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case _ where pythonLayout && !scalar.isASCII:
            for unit in String(scalar).utf16 {
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
            }
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1000
let pythonLayout = CommandLine.arguments.dropFirst(2).first == "python"
let version = Int(CommandLine.arguments.dropFirst(3).first ?? "") ?? 1
let withReminders = CommandLine.arguments.dropFirst(4).first == "reminders"
/// A whole day, as the version keeps it: its date, or its midnight in UTC.
func day(_ key: String, _ dateKey: String, _ seconds: Int) -> [String] {
    guard version >= 2 else { return ["\"\(key)\": \(seconds)"] + (key == "timestamp" ? ["\"allDay\": true"] : []) }
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return [String(format: "\"%@\": \"%04d-%02d-%02d\"", dateKey, parts.year!, parts.month!, parts.day!)]
}
var open: [String] = [], done: [String] = [], ids: [String] = []
let tagWords = ["home", "work", "errand", "phone", "garden", "family", "money", "health"]
let start = 1_767_225_600 // 1 January 2026
for number in 1...count {
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in bytes.indices { bytes[index] = UInt8(random(256)) }
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    let id = UUID(
        uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
            bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    ).uuidString
    var fields = [
        "\"id\": \"\(id)\"", "\"number\": \(number)",
        "\"title\": " + quoted("\(verbs[random(verbs.count)]) \(things[random(things.count)]) #\(number)")
    ]
    if number > 1, random(2) == 0 {
        fields.append(
            "\"itemDescription\": "
                + quoted("Notes for item \(number): ask about \(things[random(things.count)]).\nThen follow up."))
    }
    var hasDue = false
    if random(3) > 0 {
        hasDue = true
        let timed = random(5) == 0
        let seconds = start + random(730) * 86_400 + (timed ? 3600 * (8 + random(10)) : 0)
        if timed {
            fields.append("\"timestamp\": \(seconds)")
            if version < 2 { fields.append("\"allDay\": false") }
        } else {
            fields += day("timestamp", "dueDate", seconds)
        }
    }
    if random(5) == 0 {
        let place = places[random(places.count)]
        fields.append(
            pythonLayout
                ? "\"location\": {\"address\": \(quoted(place.1)), \"coordinate\": {\"latitude\": \(place.2), \"longitude\": \(place.3)}, "
                    + "\"name\": \(quoted(place.0))}"
                : "\"location\": {\"name\": \(quoted(place.0)), \"address\": \(quoted(place.1)), "
                    + "\"coordinate\": {\"latitude\": \(place.2), \"longitude\": \(place.3)}}")
    }
    // The fields people organise with: a third with a priority, half with one to three tags, a
    // tenth a subtask of an earlier item, a tenth with a start date, a tenth repeating.
    if random(3) == 0 { fields.append("\"priority\": \([1, 5, 9, 3, 7][random(5)])") }
    if random(2) == 0 {
        let tags = (0...random(3)).map { _ in tagWords[random(tagWords.count)] }
        fields.append("\"tags\": [" + Array(Set(tags)).sorted().map(quoted).joined(separator: ", ") + "]")
    }
    if number > 1, random(10) == 0 { fields.append("\"parent\": \"\(ids[random(ids.count)])\"") }
    if random(10) == 0 { fields += day("start", "startDate", start + random(730) * 86_400) }
    // A tenth repeat (those with a due date: a repeat needs one).
    if hasDue, random(7) == 0 {
        fields.append(
            "\"repeat\": " + quoted(["FREQ=WEEKLY", "FREQ=DAILY", "FREQ=MONTHLY", "FREQ=WEEKLY;INTERVAL=2"][random(4)]))
    }
    ids.append(id)
    let isDone = number > 1 && random(4) == 0
    fields.append("\"done\": \(isDone)")
    if withReminders, hasDue, number % 10 == 0 { fields.append("\"alarms\": [{\"before\": 900}]") }
    fields.append("\"createdAt\": \(start - 86_400 * 365 + number * 600)")
    if isDone { fields.append("\"completedAt\": \(start + number * 300)") }
    fields.append("\"modifiedAt\": \(start - 86_400 * 365 + number * 600)")
    if pythonLayout { fields.sort() }
    let item = "{" + fields.joined(separator: ", ") + "}"
    if isDone { done.append(item) } else { open.append(item) }
}
if pythonLayout {
    print(
        "{\"items\": [" + (open + done).joined(separator: ", ")
            + "], \"nextNumber\": \(count + 1), \"version\": \(version)}")
} else {
    print("{\"version\": \(version), \"nextNumber\": \(count + 1), \"items\": [")
    print((open + done).joined(separator: ",\n"))
    print("]}")
}
