// Package browser holds the test that drives acpinspect's page in a real
// browser, headless Chromium, with chromedp. It is a module of its own so
// that chromedp and what it requires never become dependencies of acpgen.
package browser
