package governor

import "strconv"

func f2(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// Decide applies one window's failure fraction to the offer current.
func Decide(cfg Config, frac, current, lastBad float64) Decision {
	d := Decision{Action: Hold, Offer: current, LastBad: lastBad}
	signal := "frac " + f2(frac)
	switch {
	case frac <= cfg.Low && lastBad <= 0:
		d.Action, d.Offer = Double, 2*current
		if d.Offer > cfg.Ceiling {
			d.Offer = cfg.Ceiling
		}
		d.Reason = signal + " <= low, unexplored: double to " + f2(d.Offer)
	case frac <= cfg.Low && current < lastBad*3/4:
		d.Action, d.Offer = Recover, current*3/2
		if target := lastBad * 3 / 4; d.Offer > target {
			d.Offer = target
		}
		d.Reason = signal + " <= low, under 75% of last bad " + f2(lastBad) + ": recover to " + f2(d.Offer)
	case frac <= cfg.Low:
		step := lastBad / 50
		if step < 1 {
			step = 1
		}
		d.Action, d.Offer = Probe, current+step
		if d.Offer > cfg.Ceiling {
			d.Offer = cfg.Ceiling
		}
		d.Reason = signal + " <= low, near last bad " + f2(lastBad) + ": probe to " + f2(d.Offer)
	case frac <= cfg.High:
		d.Reason = signal + " in (low, high]: hold"
	default:
		keep := 1 - frac
		if keep > 0.9 {
			keep = 0.9
		} else if keep < 0.25 {
			keep = 0.25
		}
		d.Action, d.Offer, d.LastBad = BackOff, current*keep, current
		if d.Offer < cfg.Floor {
			d.Offer = cfg.Floor
		}
		d.Reason = signal + " > high " + f2(cfg.High) + ": back off x" + f2(keep) + " to " + f2(d.Offer)
	}
	return d
}

// MemoryClearStep folds one window's evidence into the streak.
func MemoryClearStep(streak int, cleanAtOrAboveLastBad bool) (next int, clears bool) {
	switch {
	case !cleanAtOrAboveLastBad:
		return 0, false
	case streak+1 < MemoryClearStreak:
		return streak + 1, false
	default:
		return 0, true
	}
}
