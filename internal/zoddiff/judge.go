package zoddiff

import (
	"github.com/acpgen/acpgen/gen/ir"

	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// report counts the outcomes.
type report struct {
	compared, noZod, right int
	allowed                map[string]int
	wrong                  []string
}

func (r *report) allowedTotal() int {
	n := 0
	for _, c := range r.allowed {
		n += c
	}
	return n
}

func (r *report) allowedSummary() string {
	var parts []string
	for k, c := range r.allowed {
		parts = append(parts, fmt.Sprintf("%s: %d", k, c))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func (r *report) allow(reason string) {
	if r.allowed == nil {
		r.allowed = map[string]int{}
	}
	r.allowed[reason]++
}

// judge compares the Go decoder with zod's verdict v on one input.
func (r *report) judge(p Package, arb, strict *arbiter, types map[string]*ir.Type, in input, v verdict) {
	goOK := in.goErr == nil
	if goOK != v.OK {
		valid, err := arb.valid(in.def, in.data)
		if err != nil {
			r.wrong = append(r.wrong, fmt.Sprintf("%s %s: schema: %v", in.def, in.data, err))
			return
		}
		if valid == goOK {
			r.right++
			return
		}
		if reason := allowedAcceptance(p, in); reason != "" {
			r.allow(reason)
			return
		}
		if !goOK {
			r.wrong = append(r.wrong, fmt.Sprintf("%s %s: acpgen rejects (%v), zod and the schema accept", in.def, in.data, in.goErr))
		} else {
			r.wrong = append(r.wrong, fmt.Sprintf("%s %s: acpgen accepts (as %s), zod (%s) and the schema reject", in.def, in.data, in.goOut, v.Err))
		}
		return
	}
	if !goOK {
		return
	}
	// Both accept: what acpgen writes back must mean to zod what the input did.
	if v.Back == nil || !v.Back.OK {
		r.wrong = append(r.wrong, fmt.Sprintf("%s %s: acpgen writes back %s, which zod rejects (%s)", in.def, in.data, in.goOut, v.Back.Err))
		return
	}
	zv, err1 := plainValue(v.Out)
	bv, err2 := plainValue(v.Back.Out)
	if err1 != nil || err2 != nil {
		r.wrong = append(r.wrong, fmt.Sprintf("%s %s: outputs: %v %v", in.def, in.data, err1, err2))
		return
	}
	dropMeaninglessNulls(zv, []*ir.Type{types[in.def]})
	dropMeaninglessNulls(bv, []*ir.Type{types[in.def]})
	if diff := difference("", zv, bv); diff != "" {
		// A value the schema does not allow (a number out of its format's
		// range, kept by zod where the reference decoder defaults it) is
		// not one acpgen must keep.
		goValid, _ := strict.valid(in.def, in.goOut)
		zodValid, _ := strict.valid(in.def, v.Out)
		if goValid && !zodValid {
			r.right++
			return
		}
		r.wrong = append(r.wrong, fmt.Sprintf("%s %s: acpgen writes back %s, which zod reads as %s, not as %s: %s",
			in.def, in.data, in.goOut, v.Back.Out, v.Out, diff))
		return
	}
	if gv, err := plainValue(in.goOut); err == nil && hasMore(zv, gv) {
		r.allow(allowUnnamedMembers)
	}
}

// plainValue decodes JSON with numbers as float64, as JavaScript holds them.
func plainValue(b []byte) (any, error) {
	var v any
	err := json.Unmarshal(b, &v)
	return v, err
}

// difference describes the first difference between a and b, or returns "".
func difference(path string, a, b any) string {
	switch at := a.(type) {
	case map[string]any:
		bt, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %v ≠ %v", path, a, b)
		}
		keys := sortedKeys(at)
		for k := range bt {
			if _, ok := at[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			av, inA := at[k]
			bv, inB := bt[k]
			switch {
			case !inB:
				return fmt.Sprintf("%s.%s lost (%v)", path, k, av)
			case !inA:
				return fmt.Sprintf("%s.%s added (%v)", path, k, bv)
			}
			if d := difference(path+"."+k, av, bv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bt, ok := b.([]any)
		if !ok || len(bt) != len(at) {
			return fmt.Sprintf("%s: %v ≠ %v", path, a, b)
		}
		for i := range at {
			if d := difference(fmt.Sprintf("%s[%d]", path, i), at[i], bt[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if a != b {
		return fmt.Sprintf("%s: %v ≠ %v", path, a, b)
	}
	return ""
}

// hasMore reports whether the Go output g has object members that zod's
// output z lacks.
func hasMore(z, g any) bool {
	switch zt := z.(type) {
	case map[string]any:
		gt, _ := g.(map[string]any)
		for k, gv := range gt {
			zv, ok := zt[k]
			if !ok || hasMore(zv, gv) {
				return true
			}
		}
	case []any:
		gt, _ := g.([]any)
		for i := range zt {
			if i < len(gt) && hasMore(zt[i], gt[i]) {
				return true
			}
		}
	}
	return false
}
