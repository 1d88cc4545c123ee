package htmlreport

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lipton-dev/lipton/check"
	"github.com/lipton-dev/lipton/lang"
	"github.com/lipton-dev/lipton/layers"
	"github.com/lipton-dev/lipton/mc"
)

// render checks a proof of the corpus (and, with an instance name, runs
// the model checker's linearizability check on it) and returns the page.
func render(t *testing.T, path, instance string) ([]byte, *mc.Result) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "proofs", path))
	if err != nil {
		t.Fatal(err)
	}
	f, info, err := lang.ParseAndCheck(path, src)
	if err != nil {
		t.Fatal(err)
	}
	page := Page{Path: path, Version: "test", Program: layers.Build(f, info)}
	if page.Check, err = check.Run(context.Background(), f, info, check.Options{Layer: -1}, 0); err != nil {
		t.Fatal(err)
	}
	if instance != "" {
		opts := mc.Options{Instance: instance, Mode: mc.ModeLinearizability}
		if page.Explore, err = mc.Run(layers.Build(f, info), opts); err != nil {
			t.Fatal(err)
		}
		page.Command = "lipton explore --linearizability --instance " + instance
	}
	var b bytes.Buffer
	if err := Write(&b, page); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), page.Explore
}

const brokenProof = "chaselev/broken/put-publish-first.lip"

var (
	laneHeadRE = regexp.MustCompile(`<th class="lane" data-thread="([^"]*)">`)
	stepCellRE = regexp.MustCompile(`<td class="step">`)
)

// TestPageIsSelfContained: the page of a broken proof has the violation
// as swim lanes, with a lane for every thread of the trace and a cell
// for every step, and it loads nothing from anywhere.
func TestPageIsSelfContained(t *testing.T) {
	page, res := render(t, brokenProof, "small")
	if res.Status != mc.Violation || len(res.Trace) == 0 {
		t.Fatalf("the model checker found no violation in %s: %v", brokenProof, res.Status)
	}
	html := string(page)
	for _, bad := range []string{"<script", "src=", "http://", "https://", "@import", "url("} {
		if strings.Contains(html, bad) {
			t.Errorf("the page contains %q: it must be self-contained", bad)
		}
	}
	start := strings.Index(html, `<section class="finding fail" id="violation">`)
	if start < 0 {
		t.Fatal("the page has no violation section")
	}
	violation := html[start : start+strings.Index(html[start:], "</section>")]
	var lanes []string
	for _, m := range laneHeadRE.FindAllStringSubmatch(violation, -1) {
		lanes = append(lanes, m[1])
	}
	threads := map[string]bool{}
	for _, st := range res.Trace {
		threads[st.Thread] = true
	}
	if len(lanes) != len(threads) {
		t.Errorf("lanes %v for the threads %v of the trace", lanes, threads)
	}
	for _, l := range lanes {
		if !threads[l] {
			t.Errorf("lane %q is no thread of the trace", l)
		}
	}
	if n := len(stepCellRE.FindAllString(violation, -1)); n != len(res.Trace) {
		t.Errorf("%d step cells for a trace of %d steps", n, len(res.Trace))
	}
	for _, want := range []string{"waits at line 64 in put", "T: 0 -&gt; 1", "returns task = 0", "commutativity (layer 1)",
		`class="badge b-left">L</span>`, `<tr class="member-row" data-member="steal">`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// browserEnv names the variable that makes the browser test optional on
// a machine without Chromium; CI installs Chromium (run.sh) and runs it.
const browserEnv = "LIPTON_BROWSER_TESTS"

// TestPagesRenderInChromium opens the page of the Chase-Lev proof and of
// a broken variant's counterexample in headless Chromium, and checks the
// screenshots: the size of the window, not blank, and the colours of
// what they must show (the verdict, the mover badges, the lanes' heads).
func TestPagesRenderInChromium(t *testing.T) {
	browser := findChromium()
	if browser == "" {
		if os.Getenv(browserEnv) == "optional" {
			t.Skipf("chromium is not installed and %s=optional: the pages were not rendered", browserEnv)
		}
		t.Fatalf("chromium is needed to render the HTML report (apt-get install chromium; ./run.sh test installs it), or set %s=optional", browserEnv)
	}
	dir := t.TempDir()
	cases := []struct {
		name, proof, instance string
		colours               map[string]int // colour -> the fewest pixels of it
	}{
		{"chaselev", "chaselev/chaselev.lip", "", map[string]int{"#d8f0e1": 5000, "#cd4246": 500, "#d9822b": 300, "#e7f1ff": 5000, "#fff0a8": 2000, "#f1eafc": 5000}},
		{"broken", brokenProof, "small", map[string]int{"#2b4c7e": 3000, "#eaf1fb": 20000, "#fbe0e0": 5000}},
	}
	for _, c := range cases {
		page, _ := render(t, c.proof, c.instance)
		htmlPath := filepath.Join(dir, c.name+".html")
		if err := os.WriteFile(htmlPath, page, 0o644); err != nil {
			t.Fatal(err)
		}
		img := screenshot(t, browser, htmlPath, filepath.Join(dir, c.name+".png"))
		if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 1000 {
			t.Errorf("%s: a screenshot of %v, want 1400x1000", c.name, b)
		}
		counts := colourCounts(img)
		if len(counts) < 50 {
			t.Errorf("%s: the screenshot has %d colours: blank?", c.name, len(counts))
		}
		for colour, least := range c.colours {
			t.Logf("%s: %d pixels of %s", c.name, counts[colour], colour)
			if counts[colour] < least {
				t.Errorf("%s: %d pixels of %s, want at least %d", c.name, counts[colour], colour, least)
			}
		}
	}
}

func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// screenshot renders a page in headless Chromium, which must not reach
// the network, and returns the picture.
func screenshot(t *testing.T, browser, htmlPath, pngPath string) image.Image {
	t.Helper()
	// A safety limit only: a loaded machine may take long, a hung
	// browser must not hang the test suite.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--hide-scrollbars", "--screenshot="+pngPath, "--window-size=1400,1000",
		"file://"+htmlPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	return img
}

// colourCounts counts the pixels of each colour, as #rrggbb.
func colourCounts(img image.Image) map[string]int {
	counts := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[hexColour(r>>8, g>>8, bl>>8)]++
		}
	}
	return counts
}

func hexColour(r, g, b uint32) string {
	const digits = "0123456789abcdef"
	out := []byte{'#'}
	for _, c := range []uint32{r, g, b} {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
