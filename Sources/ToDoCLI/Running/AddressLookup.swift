import ToDoCore
import ToDoModel

/// Finds the coordinate of an address given without one, on the geocoder the user configured,
/// before a command takes the store's lock (a slow server must not hold up other `todo`s). A
/// failure is a warning, never an error: the item is saved anyway, as the book does.
struct AddressLookup {
    /// Seconds a look-up may take when `TODO_HTTP_TIMEOUT` is not set.
    static let defaultTimeout = 5.0

    let geocoderURL: WebAddress?
    let transport: HTTPTransport?
    let timeout: Double
    let errorOutput: TextOutput

    /// The coordinate of `address`, or `nil` after a warning that says why and what `otherwise`
    /// happens to the item. Without a geocoder, `nil` and no word: looking addresses up is
    /// something a user turns on (`TODO_GEOCODER_URL`), and most never do.
    func coordinate(for address: String, otherwise: String) -> Coordinate? {
        guard let geocoderURL else { return nil }
        guard let transport else {
            warn("this todo cannot make HTTP requests to look up '\(address)'; \(otherwise)")
            return nil
        }
        let geocoder = Geocoder(
            endpoint: geocoderURL, transport: transport, userAgent: HelpRenderer.userAgent, timeout: timeout)
        do {
            let place = try geocoder.place(for: address)
            let name = place.displayName.map { " (\($0))" } ?? ""
            errorOutput.write(
                TerminalText.printable(
                    "Found '\(address)' at \(ItemRenderer.text(of: place.coordinate))\(name)") + "\n")
            errorOutput.flush()
            return place.coordinate
        } catch {
            warn("could not look up '\(address)': \(error); \(otherwise)")
            return nil
        }
    }

    private func warn(_ message: String) {
        errorOutput.write("Warning: \(TerminalText.printable(message))\n")
        // Shown before the command's result, as it happened.
        errorOutput.flush()
    }
}
