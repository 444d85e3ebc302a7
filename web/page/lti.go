package page

import "strings"

// LTIView is the instructor's page of the learning platforms (LTI 1.3):
// what to register the class with, the platforms registered, the scores
// sent to their gradebooks and their courses' rosters.
type LTIView struct {
	Instructor, CSRF string
	Config           LTIConfig
	Platforms        []LTIPlatform
	Scores           []LTIScore
	Rosters          []LTIRoster
	RostersError     string
	// Notice says what the instructor's last action did; Problems why it
	// could not. RegistrationURL is one just made.
	Notice          string
	Problems        []string
	RegistrationURL string
	Failed          int // scores given up on
}

// LTIConfig is the tool's side of a registration: its URLs.
type LTIConfig struct {
	Login, Launch, JWKS, Register string
}

// LTIPlatform is a registered platform.
type LTIPlatform struct {
	Name, Issuer, ClientID string
	Deployments            []string
}

// LTIScore is a score sent, or on its way, to a platform's gradebook.
type LTIScore struct {
	Learner, Exercise string
	Score, Max        float64
	State             string // pending, posted or failed
	Attempts          int
	Error             string
	When              string // posted at, or last changed at
}

// LTIRoster is one course's members, as the platform lists them.
type LTIRoster struct {
	Platform, Course string
	Members          []LTIMember
	Error            string
}

// LTIMember is one member of a platform's course; Class is the class's
// name for them once they launched, "" before.
type LTIMember struct {
	Name, Email, Class string
	Instructor         bool
}

// LTIPick is a week on the deep-linking picker, with its exercises.
type LTIPick struct {
	Week      int
	Title     string
	Exercises []LTIPickExercise
}

// LTIPickExercise is an exercise on the picker.
type LTIPickExercise struct {
	ID, Title string
	Points    float64
}

// joined lists deployment ids with commas.
func joined(list []string) string { return strings.Join(list, ", ") }

// LTICloseScript is the registration page's one script: it tells the
// platform that opened the page (Dynamic Registration) that the tool is
// registered, and the platform closes it. The server allows it by its hash.
const LTICloseScript = `(window.opener || window.parent).postMessage({subject: "org.imsglobal.lti.close"}, "*");`
