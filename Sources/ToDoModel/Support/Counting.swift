/// "1 second", "0.5 seconds", "10 seconds": a number of seconds as a message says it.
package func secondsText(_ seconds: Double) -> String {
    let number = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    return number + (seconds == 1 ? " second" : " seconds")
}

/// "1 item", "2 items".
package func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// "a", "a and b", "a, b and c": names in a sentence.
package func inASentence(_ names: [String]) -> String {
    guard let last = names.last else { return "" }
    return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
}
