/// A command-line failure with a message for people and its exit status.
struct CLIError: Error, CustomStringConvertible {
    /// The documented exit statuses (`diffable --help`).
    enum Status: Int32 {
        case rejected = 1
        case usage = 2
        case internalError = 3
    }

    var description: String
    var status: Status

    init(_ description: String, status: Status = .usage) {
        self.description = description
        self.status = status
    }
}
