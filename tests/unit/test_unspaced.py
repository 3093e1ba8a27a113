"""Prose in scripts that do not space words or mark sentences the Latin way (Thai, Japanese and Chinese web
copy without "。", Khmer, Burmese) against a short side box punctuated the Latin way.

The pages are made up for these tests: a menu, an article of several paragraphs, a side column with an
"about" box of a few Latin-punctuated sentences and a list of links, and a footer. Without the rules
(heuristics.UNSPACED_CHARS_PER_WORD with UNSPACED_SCRIPTS, the script marks in SENTENCE_PUNCT and
SENTENCE_END) the article's paragraphs read as one long word without a sentence each (NO_PUNCT_WEIGHT), the
side box outweighs them and is taken for the article. Every test runs the C code and the Python reference.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.unit.cleankit import PROSE, PROSE2, seg_of
from worker.clean import classify as classify_mod
from worker.clean import heuristics as h
from worker.clean import native, scripts
from worker.clean.classify import Candidates
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.score import score
from worker.models import Page


@pytest.fixture(params=["native", "python"])
def path(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test once on the C code (where it is built) and once on the Python reference."""
    if request.param == "python":
        with native.python_only():
            yield request.param
    else:
        yield request.param


# Thai: no sentence mark; a space ends a sentence or a clause.
TH = [
    "กรุงเทพมหานครมีฝนตกหนักตั้งแต่เช้าวันนี้ กรมอุตุนิยมวิทยาแจ้งว่าฝนจะตกต่อเนื่องไปอีกอย่างน้อยสามวัน "
    "ถนนหลายสายในเขตเมืองมีน้ำท่วมขังและการจราจรติดขัดอย่างหนัก",
    "ประชาชนจำนวนมากบอกว่าต้องใช้เวลาเดินทางไปทำงานนานกว่าปกติเกือบสองชั่วโมง "
    "เจ้าหน้าที่ของสำนักการระบายน้ำกำลังเร่งสูบน้ำออกจากพื้นที่ที่ได้รับผลกระทบมากที่สุด",
    "ผู้เชี่ยวชาญด้านผังเมืองเห็นว่าหากไม่ปรับปรุงระบบระบายน้ำให้ดีขึ้น ปัญหานี้จะรุนแรงขึ้นทุกปี "
    "พวกเขาเสนอให้รัฐบาลวางแผนระยะยาวและลงทุนในคลองระบายน้ำเพิ่มเติม",
]
TH_NAV = ["หน้าแรก", "ข่าว", "การเมือง", "เศรษฐกิจ", "กีฬา", "บันเทิง", "เทคโนโลยี", "ติดต่อเรา"]
TH_ABOUT = "เกี่ยวกับเรา: เว็บไซต์ข่าวอิสระที่นำเสนอข่าวสารทุกวัน. ติดต่อทีมงานได้ทุกวันจันทร์ถึงศุกร์."

# Lao: like Thai, no sentence mark.
LO = "ມື້ນີ້ຝົນຕົກໜັກຢູ່ນະຄອນຫຼວງວຽງຈັນຕັ້ງແຕ່ຕອນເຊົ້າ ກົມອຸຕຸນິຍົມບອກວ່າຝົນຈະຕົກຕໍ່ໄປອີກສາມມື້"

# Japanese web copy without "。": a line break or the paragraph's end closes a sentence, "、" stays.
JA = [
    "東京では今朝から強い雨が降り続いています<br>気象庁によると、この雨は少なくとも三日間続く見込みで、"
    "都内の多くの道路が冠水し、通勤の足に大きな影響が出ています",
    "駅で電車を待っていた会社員の男性は、いつもより二時間近く遅れて会社に着いたと話していました<br>"
    "区の職員は朝から排水ポンプを動かし、水の引かない地域で作業を続けています",
    "専門家は、都市の排水設備を見直さなければ、この問題は毎年ひどくなると指摘しています<br>"
    "政府に対しては、長期的な計画を立てて対策を急ぐよう求める声が上がっています",
]
JA_NAV = ["ホーム", "ニュース", "政治", "経済", "スポーツ", "エンタメ", "科学", "お問い合わせ"]
JA_ABOUT = (
    "運営者について: 当サイトは地域のニュースを毎日お届けする独立したメディアです. "
    "ご意見やご感想はお問い合わせフォームからお寄せください."
)

# Chinese with "。" and "，", and the same prose as web copy often has it: sentences parted by a space.
ZH = [
    "北京今天从早上开始下起了大雨。气象部门表示，这场降雨至少还会持续三天。市内多条道路出现积水，早高峰交通受到严重影响。",
    "不少市民说，今天上班路上比平时多花了将近两个小时。市政部门的工作人员正在积水严重的地区抽水，并提醒司机绕行。",
    "专家认为，如果不改善城市的排水系统，这个问题会一年比一年严重。他们建议政府制定长期规划，尽快增加排水设施的投入。",
]
ZH_NOSTOP = [p.rstrip("。").replace("。", " ") for p in ZH]
ZH_NAV = ["首页", "新闻", "政治", "经济", "体育", "娱乐", "科技", "联系我们"]
ZH_ABOUT = (
    "关于我们: 本站是一家独立的地方新闻网站, 每天由一个小团队更新. 欢迎读者随时来信, 我们会认真阅读每一封信."
)

# Khmer: "។" ends a sentence, a space parts phrases.
KM = [
    "ភ្លៀងធ្លាក់ខ្លាំងនៅរាជធានីភ្នំពេញតាំងពីព្រឹកមិញ។ ក្រសួងធនធានទឹកនិងឧតុនិយមបានប្រាប់ថា "
    "ភ្លៀងនេះនឹងបន្តធ្លាក់រយៈពេលបីថ្ងៃទៀត។ ផ្លូវជាច្រើនក្នុងទីក្រុងត្រូវលិចទឹក ហើយចរាចរណ៍កកស្ទះយ៉ាងខ្លាំង។",
    "ប្រជាពលរដ្ឋជាច្រើននិយាយថា ពួកគេត្រូវចំណាយពេលធ្វើដំណើរទៅធ្វើការយូរជាងធម្មតាជិតពីរម៉ោង។ "
    "មន្ត្រីសាលារាជធានីកំពុងបូមទឹកចេញពីតំបន់ដែលរងផលប៉ះពាល់ខ្លាំងជាងគេ។",
    "អ្នកជំនាញយល់ថា បើមិនកែលម្អប្រព័ន្ធលូបង្ហូរទឹករបស់ទីក្រុងទេ បញ្ហានេះនឹងកាន់តែធ្ងន់ធ្ងរជារៀងរាល់ឆ្នាំ។ "
    "ពួកគេស្នើឱ្យរដ្ឋាភិបាលរៀបចំផែនការរយៈពេលវែង។",
]
KM_NAV = ["ទំព័រដើម", "ព័ត៌មាន", "នយោបាយ", "សេដ្ឋកិច្ច", "កីឡា", "កម្សាន្ត", "បច្ចេកវិទ្យា", "ទំនាក់ទំនង"]
KM_ABOUT = "អំពីយើង: គេហទំព័រព័ត៌មានឯករាជ្យ ដែលធ្វើបច្ចុប្បន្នភាពរាល់ថ្ងៃ. សូមទាក់ទងយើងខ្ញុំគ្រប់ពេល."

# Burmese: "။" ends a sentence, "၊" parts clauses, a space parts phrases.
MY = [
    "ရန်ကုန်မြို့တွင် ယနေ့မနက်ကစပြီး မိုးသည်းထန်စွာ ရွာသွန်းနေသည်။ မိုးလေဝသဌာနက ဤမိုးသည် "
    "နောက်ထပ်သုံးရက်ခန့် ဆက်လက်ရွာသွန်းနိုင်သည်ဟု ပြောသည်။ မြို့တွင်းလမ်းများစွာ ရေလွှမ်းမိုးနေပြီး "
    "ယာဉ်ကြောပိတ်ဆို့မှု ဖြစ်ပေါ်နေသည်။",
    "လူအများအပြားက ရုံးသို့သွားရာတွင် ပုံမှန်ထက် နှစ်နာရီနီးပါး ပိုကြာသည်ဟု ဆိုသည်။ "
    "မြို့တော်စည်ပင်ဝန်ထမ်းများသည် ရေဝပ်သော ဒေသများမှ ရေကို စုပ်ထုတ်နေကြသည်။",
    "ကျွမ်းကျင်သူများက မြို့၏ ရေနုတ်မြောင်းစနစ်ကို မပြုပြင်ပါက ဤပြဿနာသည် နှစ်စဉ် ပိုဆိုးလာမည်ဟု ဆိုသည်။ "
    "၎င်းတို့သည် အစိုးရအား ရေရှည်စီမံကိန်း ချမှတ်ရန် တိုက်တွန်းခဲ့သည်။",
]
MY_NAV = ["ပင်မစာမျက်နှာ", "သတင်း", "နိုင်ငံရေး", "စီးပွားရေး", "အားကစား", "ဖျော်ဖြေရေး", "နည်းပညာ", "ဆက်သွယ်ရန်"]
# The same prose as some Burmese web copy spaces it, between words: no longer unspaced, "။" alone marks it.
MY_SPACED = [
    "ရန်ကုန် မြို့ တွင် ယနေ့ မနက် က စပြီး မိုး သည်းထန်စွာ ရွာသွန်း နေ သည်။ မိုးလေဝသ ဌာန က ဤ မိုး သည် "
    "နောက်ထပ် သုံး ရက် ခန့် ဆက်လက် ရွာသွန်း နိုင် သည် ဟု ပြော သည်။ မြို့တွင်း လမ်း များစွာ ရေ လွှမ်းမိုး နေ ပြီး "
    "ယာဉ်ကြော ပိတ်ဆို့မှု ဖြစ်ပေါ် နေ သည်။",
    "လူ အများအပြား က ရုံး သို့ သွား ရာ တွင် ပုံမှန် ထက် နှစ် နာရီ နီးပါး ပို ကြာ သည် ဟု ဆို သည်။ "
    "မြို့တော် စည်ပင် ဝန်ထမ်း များ သည် ရေ ဝပ် သော ဒေသ များ မှ ရေ ကို စုပ်ထုတ် နေ ကြ သည်။",
    "ကျွမ်းကျင်သူ များ က မြို့ ၏ ရေနုတ်မြောင်း စနစ် ကို မ ပြုပြင် ပါ က ဤ ပြဿနာ သည် နှစ်စဉ် ပို ဆိုး လာ မည် ဟု "
    "ဆို သည်။ ၎င်း တို့ သည် အစိုးရ အား ရေရှည် စီမံကိန်း ချမှတ် ရန် တိုက်တွန်း ခဲ့ သည်။",
]
MY_ABOUT = "ကျွန်ုပ်တို့အကြောင်း: နေ့စဉ် သတင်းများကို တင်ဆက်ပေးသော လွတ်လပ်သည့် သတင်းဝက်ဘ်ဆိုက် ဖြစ်သည်. ကျွန်ုပ်တို့ထံ အချိန်မရွေး ဆက်သွယ်နိုင်သည်."

# The side column's box, in English: a few sentences with Latin punctuation.
ABOUT = (
    "About us: we are an independent local news site, updated every day by a small team. Write to us "
    "at any time; we read every letter."
)


def page(paragraphs: list[str], nav: list[str], about: str, title: str = "") -> str:
    """A news page: menu, headline and article, a side column (the about box twice, a list of links),
    footer."""
    menu = "".join(f'<li><a href="/c{i}">{m}</a></li>' for i, m in enumerate(nav))
    side = "".join(f'<li><a href="/s{i}">{nav[i % len(nav)]} {i}</a></li>' for i in range(8))
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f'<html><body><div id="header"><ul class="nav">{menu}</ul></div><div id="wrap"><div id="m1">'
        f'<h1>{title or nav[1]}</h1><div class="c1">{body}</div></div>'
        f'<div id="m2"><div class="c2"><p>{about}</p><p>{about} 2</p></div><ul>{side}</ul></div></div>'
        '<div id="bottom"><p><a href="/a">About</a> <a href="/p">Privacy</a> © 2026</p></div></body></html>'
    )


PAGES = {
    "th": (TH, TH_NAV, TH_ABOUT),
    "th/en": (TH, TH_NAV, ABOUT),
    "ja": (JA, JA_NAV, JA_ABOUT),
    "ja/en": (JA, JA_NAV, ABOUT),
    "zh": (ZH, ZH_NAV, ZH_ABOUT),
    "zh/en": (ZH, ZH_NAV, ABOUT),
    "zh-nostop": (ZH_NOSTOP, ZH_NAV, ZH_ABOUT),
    "zh-nostop/en": (ZH_NOSTOP, ZH_NAV, ABOUT),
    "km": (KM, KM_NAV, KM_ABOUT),
    "km/en": (KM, KM_NAV, ABOUT),
    "my": (MY, MY_NAV, MY_ABOUT),
    "my/en": (MY, MY_NAV, ABOUT),
    "my-spaced": (MY_SPACED, MY_NAV, MY_ABOUT),
    "my-spaced/en": (MY_SPACED, MY_NAV, ABOUT),
}


def cleaned(name: str) -> str:
    paragraphs, nav, about = PAGES[name]
    html = page(paragraphs, nav, about)
    return clean_page(Page(id=name, html=html), None, CleanOptions(block_model=False)).text


def _has(text: str, paragraph: str) -> bool:
    return paragraph.replace("<br>", "\n") in text or paragraph.replace("<br>", " ") in text


@pytest.mark.parametrize(
    "name",
    ["th", "th/en", "ja", "zh", "zh-nostop", "km", "km/en", "my", "my/en", "my-spaced", "my-spaced/en"],
)  # fmt: skip
def test_the_article_beats_a_punctuated_side_box(name: str, path: str) -> None:
    # rule: UNSPACED_CHARS_PER_WORD with UNSPACED_SCRIPTS (each page but my-spaced and zh), the script marks
    # in SENTENCE_PUNCT (my-spaced: words spaced, "။" alone). Without them every page but zh keeps the about
    # box too: it is the target, the article joins it. zh (with "。") came out before: the control.
    paragraphs, _, about = PAGES[name]
    text = cleaned(name)
    assert all(_has(text, p) for p in paragraphs)
    assert about not in text


@pytest.mark.parametrize("name", ["ja/en", "zh/en", "zh-nostop/en"])
def test_a_cjk_article_beside_an_english_box_comes_out(name: str, path: str) -> None:
    # rule: as above, and DENSE_CHAR_WEIGHT. Without the first, ja/en and zh-nostop/en lose the whole
    # article to the English box; without the second the box joins the text on all three (240 CJK
    # characters weighed less than its 260 Latin ones).
    paragraphs, _, about = PAGES[name]
    text = cleaned(name)
    assert all(_has(text, p) for p in paragraphs)
    assert about not in text


# The marks SENTENCE_PUNCT holds for the scripts beyond Latin, Devanagari and Arabic, and the full stops among
# them that SENTENCE_END holds.
SCRIPT_MARKS = "，、：；｡､។៕၊။።፣፤։།"
SCRIPT_STOPS = "｡។៕။።։།"


def _blocks(texts: list[str], link_words: list[int] | None = None) -> Candidates:
    words = [len(t.split()) for t in texts]
    lw = link_words or [0] * len(texts)
    ld = [a / w for a, w in zip(lw, words, strict=True)]
    n = len(texts)
    return Candidates(texts, ["paragraph"] * n, [len(t) for t in texts], words, lw, ld, [0] * n)


def _decided(texts: list[str], link_words: list[int], good_share: float | None) -> list[int]:
    """The blocks classify_region keeps (the C code where it is active), all in one element."""
    b = _blocks(texts, link_words)
    n = len(texts)
    kept, _ = classify_mod._decide(
        b.texts, b.kinds, b.chars, b.words, b.link_words, b.link_density, b.stop_words, list(range(n)),
        [0] * n, None, None, good_share,
    )  # fmt: skip
    return kept


@pytest.mark.parametrize("mark", list(SCRIPT_MARKS))
def test_script_marks_are_sentence_punctuation(mark: str, path: str) -> None:
    # rule: SENTENCE_PUNCT holds the script's mark. Spaced words, so that only the mark decides.
    with_mark = f"alpha beta gamma delta{mark} epsilon zeta eta theta " * 4
    without = with_mark.replace(mark, "")
    assert not h.SENTENCE_PUNCT.search(without)
    weights = score(seg_of(f"<p>{with_mark}</p><p>{without}</p>")).weights
    assert weights[0] == pytest.approx(len(with_mark.strip()))
    assert weights[1] == pytest.approx(len(without.strip()) * h.NO_PUNCT_WEIGHT)
    # without a language, a long block with sentence punctuation is good, one without near-good
    assert len(without) >= h.NOSTOP_GOOD_LENGTH
    got = classify_mod.classify(_blocks([with_mark, without]), None, [False, False])
    assert got == [classify_mod.GOOD, classify_mod.NEAR]
    # between two link lines, the near-good block goes, the good one stays
    links = "Home About Contact Jobs Press Blog"
    assert _decided([links, with_mark, links, without, links], [6, 0, 6, 0, 6], None) == [1]


@pytest.mark.parametrize("stop", list(SCRIPT_STOPS))
def test_script_full_stops_end_a_sentence(stop: str, path: str) -> None:
    # rule: SENTENCE_END holds the script's full stop: a paragraph ending a sentence with up to
    # LINKED_SENTENCE_MAX_LINK_DENSITY of its words in links is prose citing its source, not a link cluster
    cited = f"Read the report at the council site and the two letters it sent{stop}"
    assert h.LENGTH_LOW <= len(cited) <= h.LENGTH_HIGH
    assert cited.endswith(h.SENTENCE_END)
    assert not cited[:-1].endswith(h.SENTENCE_END)
    texts = [PROSE, cited, PROSE2]
    en = h.STOPWORD_GOOD_SHARE["en"]
    assert _decided(texts, [0, 8, 0], en) == [0, 1, 2]
    assert _decided([PROSE, cited[:-1], PROSE2], [0, 8, 0], en) == [0, 2]


# Latin runs over UNSPACED_CHARS_PER_WORD characters a word: no script that does not space words.
LATIN_RUNS = ["AllThingsDigital", "Telecommunications", "_" * 40, "TrainingWhere to RideRacingBeginning"]


def test_unspaced_prose_weighs_as_prose(path: str) -> None:
    # rule: UNSPACED_CHARS_PER_WORD with UNSPACED_SCRIPTS. Thai, Lao, Japanese without "。" and Chinese
    # without any mark weigh in full; their menu words (spaced, short) and Latin runs as long do not.
    zh_bare = ZH[0].replace("。", "").replace("，", "")
    prose = [TH[0], LO, JA[0].replace("<br>", "").replace("、", ""), zh_bare]
    menus = [" ".join(TH_NAV), " ".join(JA_NAV), *LATIN_RUNS]
    for t in prose + menus:
        assert not h.SENTENCE_PUNCT.search(t), t
    weights = score(seg_of("".join(f"<p>{t}</p>" for t in prose + menus))).weights
    assert weights[: len(prose)] == pytest.approx([_size(t) for t in prose])
    assert weights[len(prose) :] == pytest.approx([_size(t) * h.NO_PUNCT_WEIGHT for t in menus])


def _size(text: str) -> float:
    """A text's prose size: its characters, a kana or CJK ideograph as DENSE_CHAR_WEIGHT of them."""
    dense = sum(any(lo <= ord(c) <= hi for lo, hi in h.DENSE_SCRIPTS) for c in text)
    return len(text) + (h.DENSE_CHAR_WEIGHT - 1.0) * dense


def test_a_cjk_character_weighs_as_much_as_dense_char_weight_latin_ones(path: str) -> None:
    # rule: DENSE_CHAR_WEIGHT on kana and ideographs only; Thai and Latin text weigh their characters
    texts = ["東京では今朝から強い雨。", "รุงเทพ ฝนตก.", "Latin text, plain.", "漢字 and Latin, mixed."]
    weights = score(seg_of("".join(f"<p>{t}</p>" for t in texts))).weights
    extra = h.DENSE_CHAR_WEIGHT - 1
    assert weights == pytest.approx([12 + 11 * extra, 12, 18, 20 + 2 * extra])


def test_unspaced_prose_is_good_without_a_stoplist(path: str) -> None:
    # rule: as above, in classify: a long block of it is good without a language, a Latin run stays near-good
    latin = " ".join(["AllThingsDigitalTelecommunications"] * 4)
    texts = [TH[0], latin]
    assert all(len(t) >= h.NOSTOP_GOOD_LENGTH and not h.SENTENCE_PUNCT.search(t) for t in texts)
    assert len(latin) > h.UNSPACED_CHARS_PER_WORD * len(latin.split())
    got = classify_mod.classify(_blocks(texts), None, [False, False])
    assert got == [classify_mod.GOOD, classify_mod.NEAR]
    links = "Home About Contact Jobs Press Blog"
    assert _decided([links, TH[0], links, latin, links], [6, 0, 6, 0, 6], None) == [1]


@pytest.mark.parametrize("ranges", [h.UNSPACED_SCRIPTS, h.DENSE_SCRIPTS])
def test_the_scripts_counted_are_the_ranges(ranges: tuple[tuple[int, int], ...]) -> None:
    # sorted and disjoint (the count bisects them); the ranges' first and last characters count, the
    # characters around them do not
    assert all(a[1] < b[0] for a, b in itertools.pairwise(ranges))
    count = scripts.counter(ranges)
    for lo, hi in ranges:
        assert count(chr(lo)) == count(chr(hi)) == 1
    outside = {c for lo, hi in ranges for c in (lo - 1, hi + 1)} - {
        c for lo, hi in ranges for c in range(lo, hi + 1)
    }
    assert outside
    assert count("".join(map(chr, outside))) == 0
    assert count("a" + chr(ranges[0][0]) * 5 + "\u00e9", 3) == 3  # stops at the limit


def test_unspaced_scripts_are_the_scripts_of_unspaced_prose() -> None:
    unspaced = scripts.counter(h.UNSPACED_SCRIPTS)
    for text in (TH[0], LO, JA[0], ZH[0], KM[0], MY[0]):
        assert unspaced(text)
    assert not any(unspaced(t) for t in LATIN_RUNS)
