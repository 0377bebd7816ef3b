// The character codes a JSON text is read by (RFC 8259): whitespace, the structural characters, and the
// characters of strings, numbers and literal names.

export const TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  QUOTE = 34,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  DOT = 46;
export const ZERO = 48,
  NINE = 57,
  COLON = 58,
  UPPER_E = 69,
  BACKSLASH = 92;
export const LOWER_E = 101,
  LOWER_F = 102,
  LOWER_N = 110,
  LOWER_T = 116,
  LOWER_U = 117;
export const OPEN_ARRAY = 91,
  CLOSE_ARRAY = 93,
  OPEN_OBJECT = 123,
  CLOSE_OBJECT = 125,
  BYTE_ORDER_MARK = 0xfeff;
