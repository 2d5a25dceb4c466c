// swift-tools-version:6.0
// An app's view of ZKPin: depends on the repository by URL (a git URL; tools/zkpinkit-test
// passes a file:// clone and the commit) and imports ZKPinKit alone.
import Foundation
import PackageDescription

let environment = ProcessInfo.processInfo.environment
let package = Package(
    name: "zkpinkit-consumer",
    dependencies: [
        .package(
            url: environment["ZKPIN_KIT_URL"] ?? "https://github.com/zkpin/zkpin",
            revision: environment["ZKPIN_KIT_REVISION"] ?? "main")
    ],
    targets: [
        .executableTarget(name: "zkpinkit-consumer", dependencies: [.product(name: "ZKPinKit", package: "zkpin")])
    ]
)
