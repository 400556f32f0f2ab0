"""The web table in headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium with the system driver: nothing is downloaded). A person's round, by
clicking: join, sit, place a fouled split (the page says so and will not submit), clear,
place the engine's split card by card, submit, watch the reveal.

Skipped when the browser is absent, except in CI (``CI=true``), where it must run."""

from __future__ import annotations

import os
import shutil

import pytest
from server_support import serve

import thirteen
from thirteen import RuleSet

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
HAVE_BROWSER = os.path.exists(CHROMIUM) and os.path.exists(DRIVER)

if not HAVE_BROWSER and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium and chromium-driver are not installed", allow_module_level=True)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

KAIXIN = RuleSet.preset("kaixin")


@pytest.fixture
def browser():
    os.environ["SE_OFFLINE"] = "true"  # selenium-manager must fetch nothing
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def click(driver, selector: str) -> None:
    """Clicks the element ``selector`` finds, finding it again if the page re-rendered it
    between the find and the click (a stale element)."""
    for attempt in range(5):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            if attempt == 4:
                raise


def click_cards(driver, lane: str, cards: str) -> None:
    click(driver, f".lane[data-lane='{lane}'] .lane-name")
    for card in cards.split():
        click(driver, f"#hand .card[data-card='{card}']")


def hand_text(driver):
    """The 13 cards shown in the hand, read in one pass that the page did not re-render
    (else ``False``, for ``WebDriverWait`` to try again)."""
    try:
        cards = [c.get_attribute("data-card") for c in driver.find_elements(By.CSS_SELECTOR, "#hand .card")]
    except StaleElementReferenceException:
        return False
    return " ".join(cards) if len(cards) == 13 else False


def verdict(driver) -> str:
    return driver.find_element(By.ID, "verdict").text


def test_a_round_played_by_clicking(tmp_path, browser):
    server = serve(tmp_path, "--ai", "3", "--seed", "2026", "--pause-seconds", "60")
    try:
        d = browser
        wait = WebDriverWait(d, 30)
        d.get(server.url)
        d.find_element(By.ID, "name").send_keys("Ann")
        d.find_element(By.ID, "join").click()
        hand = wait.until(hand_text)
        assert len(thirteen.parse_cards(hand)) == 13

        # A fouled split: the page reports it and keeps Submit disabled.
        from test_server_protocol import fouled_split

        bad = fouled_split(hand, KAIXIN)
        for lane in ("front", "middle", "back"):
            click_cards(d, lane, bad[lane])
        wait.until(lambda d: "Fouled" in verdict(d))
        assert not d.find_element(By.ID, "submit").is_enabled()
        d.find_element(By.ID, "clear").click()
        assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == 13

        # Hints are shown; then the engine's split, placed card by card.
        d.find_element(By.ID, "hints").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-list button"))
        sol = thirteen.solve(hand, KAIXIN, players=4)
        if sol.arrangement is None:  # a special hand (报到): declare it
            d.find_element(By.ID, "declare").click()
        else:
            a = sol.arrangement
            for lane, cards in (("front", a.front), ("middle", a.middle), ("back", a.back)):
                click_cards(d, lane, thirteen.format_cards(list(cards)))
            wait.until(lambda d: verdict(d).startswith("OK"))
            d.save_screenshot(str(tmp_path / "mid-round.png"))
            d.find_element(By.ID, "submit").click()

        # The reveal: every seat's lanes, totals, and the next round announced.
        wait.until(lambda d: d.find_elements(By.ID, "result-done"))
        rows = d.find_elements(By.CSS_SELECTOR, "#reveal-table .reveal-row")
        assert len(rows) == 4
        shown = d.find_elements(By.CSS_SELECTOR, "#reveal-table .reveal-lane.shown")
        assert len(shown) == 12
        totals = [r.find_element(By.CSS_SELECTOR, ".reveal-total").text for r in rows]
        units = [int(t.split(" units")[0]) for t in totals]
        assert sum(units) == 0  # zero-sum (RULES.md 5)
        ann = totals[0]
        assert ann.endswith(f"{(100_000 + units[0] * 100) / 100:.2f}")  # balance after the round
        seat = d.find_element(By.CSS_SELECTOR, ".seat.you .money").text
        assert seat.startswith(f"{(100_000 + units[0] * 100) / 100:.2f}")
        # The page ran without a script error, and the security policy blocked nothing.
        problems = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
        assert problems == [], problems
    finally:
        server.stop()
