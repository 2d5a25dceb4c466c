import ArgumentParser

struct VectorsGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate", abstract: "Write deterministic vectors.")
    func run() throws {}
}
