public enum Lectern { public static let version = "0.1.0" }
