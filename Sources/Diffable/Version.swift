public enum DiffableVersion { public static let string = "0.1.0" }
