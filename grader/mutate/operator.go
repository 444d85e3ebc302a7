package mutate

import "go/token"

// Operator is a kind of mutation. The names are gremlins' (v0.6.0), so that
// a reader who knows that tool knows these, plus REMOVE_STATEMENT.
type Operator string

// The operators, in the order a site's mutants are listed.
const (
	// ConditionalsBoundary moves a comparison's boundary: < ↔ <=, > ↔ >=.
	ConditionalsBoundary Operator = "CONDITIONALS_BOUNDARY"
	// ConditionalsNegation negates a comparison: == ↔ !=, < ↔ >=, > ↔ <=.
	ConditionalsNegation Operator = "CONDITIONALS_NEGATION"
	// ArithmeticBase swaps a numeric operator: + ↔ -, * ↔ /, % → *.
	ArithmeticBase Operator = "ARITHMETIC_BASE"
	// IncrementDecrement swaps ++ and --.
	IncrementDecrement Operator = "INCREMENT_DECREMENT"
	// InvertNegatives drops a unary minus: -x → x (gremlins writes +x).
	InvertNegatives Operator = "INVERT_NEGATIVES"
	// InvertAssignments swaps a numeric assignment operator: += ↔ -=,
	// *= ↔ /=, %= → *=.
	InvertAssignments Operator = "INVERT_ASSIGNMENTS"
	// RemoveSelfAssignments makes x op= y a plain x = y.
	RemoveSelfAssignments Operator = "REMOVE_SELF_ASSIGNMENTS"
	// InvertLogical swaps && and ||.
	InvertLogical Operator = "INVERT_LOGICAL"
	// InvertBitwise swaps a bitwise operator: & ↔ |, ^ → &, &^ → &,
	// << ↔ >>.
	InvertBitwise Operator = "INVERT_BITWISE"
	// InvertBitwiseAssignments does the same to an assignment operator:
	// &= ↔ |=, ^= → &=, &^= → &=, <<= ↔ >>=.
	InvertBitwiseAssignments Operator = "INVERT_BWASSIGN"
	// InvertLoopCtrl swaps break and continue inside a loop (a break of a
	// switch in a loop too: it becomes a continue of the loop).
	InvertLoopCtrl Operator = "INVERT_LOOPCTRL"
	// RemoveStatement leaves out an assignment (not a declaration), an
	// increment or decrement, or an expression statement (a call). The
	// local variables it read are kept used (_ = x), so that the mutant
	// still compiles; what a call on its right-hand side does still
	// happens only for assignments, whose value is then dropped.
	RemoveStatement Operator = "REMOVE_STATEMENT"
)

// Operators lists every operator, in the order a site's mutants come.
var Operators = []Operator{
	ConditionalsBoundary, ConditionalsNegation, ArithmeticBase, IncrementDecrement,
	InvertNegatives, InvertAssignments, RemoveSelfAssignments, InvertLogical,
	InvertBitwise, InvertBitwiseAssignments, InvertLoopCtrl, RemoveStatement,
}

// swaps are the token replacements of the operators that replace one
// token (of a binary expression, an assignment, an ++/-- or a branch) by
// another.
var swaps = map[Operator]map[token.Token]token.Token{
	ConditionalsBoundary: {
		token.LSS: token.LEQ, token.LEQ: token.LSS,
		token.GTR: token.GEQ, token.GEQ: token.GTR,
	},
	ConditionalsNegation: {
		token.EQL: token.NEQ, token.NEQ: token.EQL,
		token.LSS: token.GEQ, token.GEQ: token.LSS,
		token.GTR: token.LEQ, token.LEQ: token.GTR,
	},
	ArithmeticBase: {
		token.ADD: token.SUB, token.SUB: token.ADD,
		token.MUL: token.QUO, token.QUO: token.MUL,
		token.REM: token.MUL,
	},
	IncrementDecrement: {token.INC: token.DEC, token.DEC: token.INC},
	InvertAssignments: {
		token.ADD_ASSIGN: token.SUB_ASSIGN, token.SUB_ASSIGN: token.ADD_ASSIGN,
		token.MUL_ASSIGN: token.QUO_ASSIGN, token.QUO_ASSIGN: token.MUL_ASSIGN,
		token.REM_ASSIGN: token.MUL_ASSIGN,
	},
	RemoveSelfAssignments: {
		token.ADD_ASSIGN: token.ASSIGN, token.SUB_ASSIGN: token.ASSIGN,
		token.MUL_ASSIGN: token.ASSIGN, token.QUO_ASSIGN: token.ASSIGN,
		token.REM_ASSIGN: token.ASSIGN, token.AND_ASSIGN: token.ASSIGN,
		token.OR_ASSIGN: token.ASSIGN, token.XOR_ASSIGN: token.ASSIGN,
		token.AND_NOT_ASSIGN: token.ASSIGN, token.SHL_ASSIGN: token.ASSIGN,
		token.SHR_ASSIGN: token.ASSIGN,
	},
	InvertLogical: {token.LAND: token.LOR, token.LOR: token.LAND},
	InvertBitwise: {
		token.AND: token.OR, token.OR: token.AND,
		token.XOR: token.AND, token.AND_NOT: token.AND,
		token.SHL: token.SHR, token.SHR: token.SHL,
	},
	InvertBitwiseAssignments: {
		token.AND_ASSIGN: token.OR_ASSIGN, token.OR_ASSIGN: token.AND_ASSIGN,
		token.XOR_ASSIGN: token.AND_ASSIGN, token.AND_NOT_ASSIGN: token.AND_ASSIGN,
		token.SHL_ASSIGN: token.SHR_ASSIGN, token.SHR_ASSIGN: token.SHL_ASSIGN,
	},
	InvertLoopCtrl: {token.BREAK: token.CONTINUE, token.CONTINUE: token.BREAK},
}

// numericOnly are the operators that apply only to numbers: + and += also
// join strings, and a string has no minus.
var numericOnly = map[Operator]bool{ArithmeticBase: true, InvertAssignments: true}
