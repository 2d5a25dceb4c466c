/// The one version of ZKPin: `zkpin --version`, `zkpin-server --version` and the server's
/// `/status` all print this.
public enum ZKPinVersion {
    public static let text = "0.1.0"
}
