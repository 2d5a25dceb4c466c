import Foundation

/// How the person ran this client, for the commands it suggests: the path they typed when it
/// is not on PATH (the demo's `.build/release/zkpin`), else `zkpin`; quoted for a POSIX shell.
enum ClientInvocation {
    static var command: String { command(argument0: CommandLine.arguments.first ?? "zkpin") }

    static func command(argument0: String) -> String {
        guard argument0.contains("/") else { return "zkpin" }
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%,")
        if argument0.allSatisfy({ safe.contains($0) }) { return argument0 }
        return "'" + argument0.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
