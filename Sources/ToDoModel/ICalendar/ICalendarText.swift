/// The pieces of RFC 5545's text that the model reads itself (an alarm kept in an item's lines is
/// read where the item is, `Alarm.reading`) and the iCalendar format shares: TEXT escapes,
/// DURATION values, and a content line's name, parameters and value.
package enum ICalendarText {
    /// TEXT as RFC 5545 writes it: backslash, semicolon, comma and line breaks escaped. Other
    /// control characters, which TEXT may not hold, are left out.
    package static func escaped(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r":
                result += "\\n"
                if pending == "\n" { pending = scalars.next() }
            case "\n": result += "\\n"
            case "\t": result += "\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    package static func unescaped(_ text: Substring) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The seconds an RFC 5545 DURATION names (`P1W`, `-P2D`, `PT1H30M`, `+P1DT12H`), negative for
    /// one signed `-`; `nil` for other text.
    package static func seconds(ofDuration text: Substring) -> Double? {
        var rest = text.uppercased()[...]
        var sign = 1.0
        if rest.hasPrefix("+") {
            rest = rest.dropFirst()
        } else if rest.hasPrefix("-") {
            rest = rest.dropFirst()
            sign = -1
        }
        guard rest.hasPrefix("P"), rest.count > 1, rest.count <= 40 else { return nil }
        rest = rest.dropFirst()
        var seconds = 0.0, inTime = false, number = "", sawUnit = false
        let dateUnits: [Character: Double] = ["W": 604_800, "D": 86_400],
            timeUnits: [Character: Double] = ["H": 3600, "M": 60, "S": 1]
        for character in rest {
            if character.isASCII, character.isNumber {
                number.append(character)
            } else if character == "T", !inTime, number.isEmpty {
                inTime = true
            } else if let unit = (inTime ? timeUnits : dateUnits)[character], let value = Double(number) {
                seconds += value * unit
                number = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        return sawUnit && number.isEmpty ? sign * seconds : nil
    }

    /// `seconds` as a DURATION, in the largest units that say it exactly: `-PT15M`, `P2D`, `-PT1H30M`, `PT0S`.
    package static func duration(seconds: Int) -> String {
        var rest = seconds.magnitude
        var text = seconds < 0 ? "-P" : "P"
        if rest == 0 { return "PT0S" }
        if rest % 604_800 == 0 { return text + "\(rest / 604_800)W" }
        if rest >= 86_400 {
            text += "\(rest / 86_400)D"
            rest %= 86_400
        }
        guard rest > 0 else { return text }
        text += "T"
        if rest >= 3600 { text += "\(rest / 3600)H" }
        if rest % 3600 >= 60 { text += "\(rest % 3600 / 60)M" }
        if rest % 60 > 0 { text += "\(rest % 60)S" }
        return text
    }

    /// A content line's name in upper case, its parameters (names in upper case, values without
    /// their quotes) and its value: `TRIGGER;RELATED=END:-PT15M`. `nil` for a line without a colon
    /// outside quotes.
    package static func parts(of line: String) -> (name: String, parameters: [String: String], value: Substring)? {
        var quoted = false
        guard
            let colon = line.firstIndex(where: { character in
                if character == "\"" { quoted.toggle() }
                return character == ":" && !quoted
            })
        else { return nil }
        let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
        var parameters: [String: String] = [:]
        for parameter in head.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            var value = pair[1]
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            parameters[pair[0].uppercased()] = String(value)
        }
        return (head[0].uppercased(), parameters, line[line.index(after: colon)...])
    }
}
