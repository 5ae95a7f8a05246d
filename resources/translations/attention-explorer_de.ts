<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>ContextFigure</name>
    <message>
        <source>“%1” in two sentences: one input vector, two outputs</source>
        <translation>„%1“ in zwei Sätzen: ein Eingabevektor, zwei Ausgaben</translation>
    </message>
    <message>
        <source>input x: the embedding of “%1”, a lookup</source>
        <translation>Eingabe x: das Embedding von „%1“, nachgeschlagen</translation>
    </message>
    <message>
        <source>output y: “%1” after attention</source>
        <translation>Ausgabe y: „%1“ nach der Attention</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>Dimension</translation>
    </message>
    <message>
        <source>sentence</source>
        <translation>Satz</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Sentence 1: “%1”. Sentence 2: “%2”. The input is the same in both (largest difference %3): one global vector per word. The output differs (largest difference %4, cosine %5): attention mixes in the other words, so the word's representation depends on its context.</source>
        <translation>Satz 1: „%1“. Satz 2: „%2“. Die Eingabe ist in beiden gleich (größte Abweichung %3): ein globaler Vektor pro Wort. Die Ausgabe unterscheidet sich (größte Abweichung %4, Kosinus %5): Die Attention mischt die anderen Wörter hinein, daher hängt die Darstellung des Worts von seinem Kontext ab.</translation>
    </message>
</context>
<context>
    <name>EmbeddingSpaceFigure</name>
    <message>
        <source>Embedding space: %1 words of %2, %3 dimensions</source>
        <translation>Einbettungsraum: %1 Wörter aus %2, %3 Dimensionen</translation>
    </message>
    <message>
        <source>PC 1 (%1 % of the variance)</source>
        <translation>HK 1 (%1 % der Varianz)</translation>
    </message>
    <message>
        <source>t-SNE 1</source>
        <translation>t-SNE 1</translation>
    </message>
    <message>
        <source>PC 2 (%1 %)</source>
        <translation>HK 2 (%1 %)</translation>
    </message>
    <message>
        <source>t-SNE 2</source>
        <translation>t-SNE 2</translation>
    </message>
    <message>
        <source>%1 − %2 + %3 ≈ %4   (nearest by cosine: %5)</source>
        <translation>%1 − %2 + %3 ≈ %4   (nächste nach Kosinus: %5)</translation>
    </message>
</context>
<context>
    <name>FigureBuilder</name>
    <message>
        <source>dot product</source>
        <translation>Skalarprodukt</translation>
    </message>
    <message>
        <source>scaled dot product</source>
        <translation>skaliertes Skalarprodukt</translation>
    </message>
    <message>
        <source>additive</source>
        <translation>additiv</translation>
    </message>
    <message>
        <source>bilinear</source>
        <translation>bilinear</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>Kosinus</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>hard (argmax)</source>
        <translation>hart (argmax)</translation>
    </message>
    <message>
        <source>sparsemax</source>
        <translation>Sparsemax</translation>
    </message>
    <message>
        <source>no normalization</source>
        <translation>keine Normierung</translation>
    </message>
    <message>
        <source>Mean of heads</source>
        <translation>Mittel der Heads</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>kausal</translation>
    </message>
    <message>
        <source>window %1 back</source>
        <translation>Fenster %1 zurück</translation>
    </message>
    <message>
        <source>window ±%1</source>
        <translation>Fenster ±%1</translation>
    </message>
    <message>
        <source>padding masked</source>
        <translation>Padding maskiert</translation>
    </message>
    <message>
        <source>custom mask</source>
        <translation>eigene Maske</translation>
    </message>
    <message>
        <source> · every head is off</source>
        <translation> · jeder Head ist aus</translation>
    </message>
    <message>
        <source>All heads · </source>
        <translation>Alle Heads · </translation>
    </message>
    <message>
        <source>, step by step · </source>
        <translation>, Schritt für Schritt · </translation>
    </message>
    <message>
        <source>%1 · %2 minus %3</source>
        <translation>%1 · %2 minus %3</translation>
    </message>
    <message>
        <source>weight (not normalized) · scaled to the data</source>
        <translation>Gewicht (nicht normiert) · nach den Daten skaliert</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>Attention-Gewicht</translation>
    </message>
    <message>
        <source>%1 weight of each %2 × %3 block</source>
        <translation>%1 Gewicht jedes %2 × %3-Blocks</translation>
    </message>
    <message>
        <source>largest</source>
        <translation>Größtes</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittleres</translation>
    </message>
    <message>
        <source> · log scale, scaled to the data</source>
        <translation> · logarithmische Skala, nach den Daten skaliert</translation>
    </message>
    <message>
        <source> · log scale</source>
        <translation> · logarithmische Skala</translation>
    </message>
    <message>
        <source>attention weight · scaled to the data</source>
        <translation>Attention-Gewicht · nach den Daten skaliert</translation>
    </message>
    <message>
        <source>attention weight · fixed scale 0 to 1</source>
        <translation>Attention-Gewicht · feste Skala 0 bis 1</translation>
    </message>
    <message>
        <source>queries (target)</source>
        <translation>Queries (Ziel)</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>Queries</translation>
    </message>
    <message>
        <source>, %1 per row</source>
        <translation>, %1 je Zeile</translation>
    </message>
    <message>
        <source>keys (source)</source>
        <translation>Keys (Quelle)</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <source>, %1 per column</source>
        <translation>, %1 je Spalte</translation>
    </message>
    <message>
        <source> (off)</source>
        <translation> (aus)</translation>
    </message>
    <message>
        <source>scores</source>
        <translation>Scores</translation>
    </message>
    <message>
        <source>scaled, masked</source>
        <translation>skaliert, maskiert</translation>
    </message>
    <message>
        <source>weights α</source>
        <translation>Gewichte α</translation>
    </message>
    <message>
        <source>output αV</source>
        <translation>Ausgabe αV</translation>
    </message>
    <message>
        <source>difference of weights · fixed scale −1 to 1</source>
        <translation>Differenz der Gewichte · feste Skala −1 bis 1</translation>
    </message>
    <message>
        <source>difference of weights · scaled to the data</source>
        <translation>Differenz der Gewichte · nach den Daten skaliert</translation>
    </message>
    <message>
        <source>%1 · %2 minus the same with %3</source>
        <translation>%1 · %2 minus dasselbe mit %3</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>Differenz</translation>
    </message>
    <message>
        <source>these weights</source>
        <translation>diese Gewichte</translation>
    </message>
    <message>
        <source>compared weights</source>
        <translation>verglichene Gewichte</translation>
    </message>
    <message>
        <source>Numbers in cells left out: the cells are too small for legible numbers. Make the figure larger or use fewer decimals.</source>
        <translation>Zahlen in den Zellen weggelassen: Die Zellen sind für lesbare Zahlen zu klein. Vergrößern Sie die Abbildung oder verwenden Sie weniger Nachkommastellen.</translation>
    </message>
    <message>
        <source>÷ T, masked</source>
        <translation>÷ T, maskiert</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>maskiert</translation>
    </message>
</context>
<context>
    <name>FilePrompts</name>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>“%1” has changes that are not saved. Save them first?</source>
        <translation>„%1“ hat Änderungen, die nicht gespeichert sind. Zuerst speichern?</translation>
    </message>
    <message>
        <source> (model)</source>
        <translation> (Modell)</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>Keine zuletzt geöffneten Dateien</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>Liste &amp;leeren</translation>
    </message>
    <message>
        <source>Open Scene</source>
        <translation>Szene öffnen</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>GradientFigure</name>
    <message>
        <source>Why 1/√d_k: head %1, query “%2”, d_k = %3</source>
        <translation>Warum 1/√d_k: Kopf %1, Query „%2“, d_k = %3</translation>
    </message>
    <message>
        <source>without 1/√d_k: q·k</source>
        <translation>ohne 1/√d_k: q·k</translation>
    </message>
    <message>
        <source>with 1/√d_k: q·k / √%1</source>
        <translation>mit 1/√d_k: q·k / √%1</translation>
    </message>
    <message>
        <source>score (σ = %1)</source>
        <translation>Score (σ = %1)</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>score s_k</source>
        <translation>Score s_k</translation>
    </message>
    <message>
        <source>weight w_j</source>
        <translation>Gewicht w_j</translation>
    </message>
    <message>
        <source>‖J‖ = %1
largest weight %2 · entropy %3 nats</source>
        <translation>‖J‖ = %1
größtes Gewicht %2 · Entropie %3 nats</translation>
    </message>
    <message>
        <source>∂w_j / ∂s_k</source>
        <translation>∂w_j / ∂s_k</translation>
    </message>
    <message>
        <source>∂w_j/∂s_k = w_j (δ_jk − w_k): a saturated row passes almost no gradient to its scores, which is why the scores are divided by √d_k</source>
        <translation>∂w_j/∂s_k = w_j (δ_jk − w_k): Eine gesättigte Zeile gibt fast keinen Gradienten an ihre Scores weiter; deshalb werden die Scores durch √d_k geteilt</translation>
    </message>
</context>
<context>
    <name>HardFigure</name>
    <message>
        <source>Hard attention keeps one key per query: head %1</source>
        <translation>Harte Attention behält einen Key pro Query: Head %1</translation>
    </message>
    <message>
        <source>softmax of the scores (soft)</source>
        <translation>Softmax der Scores (weich)</translation>
    </message>
    <message>
        <source>argmax of the scores (hard)</source>
        <translation>Argmax der Scores (hart)</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>query</source>
        <translation>Query</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>weight dropped</source>
        <translation>verlorenes Gewicht</translation>
    </message>
    <message>
        <source>soft weight the argmax drops, per query</source>
        <translation>weiches Gewicht, das die Argmax verwirft, je Query</translation>
    </message>
    <message>
        <source>“%1” puts %2 on “%3” and %4 on “%5”; the argmax keeps “%3” alone and drops %6 of the row (a query takes one key: ∑ p = 1, so an alignment of one word to two is lost). </source>
        <translation>„%1“ legt %2 auf „%3“ und %4 auf „%5“; die Argmax behält nur „%3“ und verwirft %6 der Zeile (eine Query nimmt einen Key: ∑ p = 1, daher geht die Zuordnung eines Worts zu zweien verloren). </translation>
    </message>
    <message>
        <source>The argmax is flat almost everywhere, so its gradient is 0: the Train tab trains hard attention only through a surrogate (straight-through or softmax-relaxed). Seed 000's remedy is an auxiliary loss beside the prediction loss, such as one on the alignment itself.</source>
        <translation>Die Argmax ist fast überall flach, ihr Gradient also 0: Der Tab Training trainiert harte Attention nur über einen Ersatz (Straight-Through oder Softmax-Relaxierung). Seed 000 schlägt einen Hilfsverlust neben dem Vorhersageverlust vor, etwa einen auf die Zuordnung selbst.</translation>
    </message>
</context>
<context>
    <name>HeadGridPainter</name>
    <message>
        <source>Layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Head</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Layer %1, head %2</source>
        <translation>Schicht %1, Head %2</translation>
    </message>
    <message>
        <source> (switched off)</source>
        <translation> (abgeschaltet)</translation>
    </message>
    <message>
        <source>: %1 attends most to %2 (%3)</source>
        <translation>: %1 achtet am stärksten auf %2 (%3)</translation>
    </message>
</context>
<context>
    <name>KernelFigure</name>
    <message>
        <source>softmax: Gaussian kernel (Nadaraya–Watson)</source>
        <translation>Softmax: Gauß-Kern (Nadaraya–Watson)</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>ReLU: Epanechnikov kernel</source>
        <translation>ReLU: Epanechnikov-Kern</translation>
    </message>
    <message>
        <source>ReLU</source>
        <translation>ReLU</translation>
    </message>
    <message>
        <source>sparsemax</source>
        <translation>Sparsemax</translation>
    </message>
    <message>
        <source>hard: nearest neighbour</source>
        <translation>hart: nächster Nachbar</translation>
    </message>
    <message>
        <source>hard (argmax)</source>
        <translation>hart (Argmax)</translation>
    </message>
    <message>
        <source>not normalized</source>
        <translation>nicht normiert</translation>
    </message>
    <message>
        <source>query q (keys k_j on the same line)</source>
        <translation>Query q (Keys k_j auf derselben Geraden)</translation>
    </message>
    <message>
        <source>f(q) = Σ_j w_j(q) v_j</source>
        <translation>f(q) = Σ_j w_j(q) v_j</translation>
    </message>
    <message>
        <source>keys and values (k_j, v_j)</source>
        <translation>Keys und Values (k_j, v_j)</translation>
    </message>
    <message>
        <source>On a line: bandwidth h = %1</source>
        <translation>Auf einer Geraden: Bandbreite h = %1</translation>
    </message>
    <message>
        <source>Attention as a kernel smoother</source>
        <translation>Attention als Kern-Glätter</translation>
    </message>
    <message>
        <source>component 1</source>
        <translation>Komponente 1</translation>
    </message>
    <message>
        <source>component 2</source>
        <translation>Komponente 2</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>Queries</translation>
    </message>
    <message>
        <source>Head %1 in 2-D: “%2” to its keys</source>
        <translation>Kopf %1 in 2-D: „%2“ zu seinen Keys</translation>
    </message>
    <message>
        <source>The output is an average of the values, each weighted by a kernel of its key's distance to the query; the bandwidth is h = √T</source>
        <translation>Die Ausgabe ist ein Mittel der Values, jeder gewichtet mit einem Kern des Abstands seines Keys zur Query; die Bandbreite ist h = √T</translation>
    </message>
</context>
<context>
    <name>LayersFigure</name>
    <message>
        <source>This scene is one attention layer. Choose 2 blocks above (or open File › Examples › Stacked blocks) to see attention and a feed-forward layer stacked.</source>
        <translation>Diese Szene ist eine Attention-Schicht. Wählen Sie oben 2 Blöcke (oder öffnen Sie Datei › Beispiele › Gestapelte Blöcke), um Attention und eine Feed-Forward-Schicht gestapelt zu sehen.</translation>
    </message>
    <message>
        <source>%1 stacked blocks: each block's output is the next one's input</source>
        <translation>%1 gestapelte Blöcke: die Ausgabe jedes Blocks ist die Eingabe des nächsten</translation>
    </message>
    <message>
        <source>layer 1 (X = E + P)</source>
        <translation>Schicht 1 (X = E + P)</translation>
    </message>
    <message>
        <source>layer %1 (X = Y of layer %2)</source>
        <translation>Schicht %1 (X = Y von Schicht %2)</translation>
    </message>
    <message>
        <source>dim</source>
        <translation>Dim.</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Each row is one block, post-norm as in Vaswani et al. 2017: A = MHA(X), the multi-head attention; H = LN(X + A), LN the layer norm; F = FFN(H) = max(0, H W1 + b1) W2 + b2; Y = LN(H + F); +A is X + A and +F is H + F. Rows are the tokens in every panel: attention mixes rows, the FFN works on each row alone. Each block's X is the Y of the block above it.</source>
        <translation>Jede Zeile ist ein Block, Post-Norm wie bei Vaswani et al. 2017: A = MHA(X), die Multi-Head-Attention; H = LN(X + A), LN die Layer-Norm; F = FFN(H) = max(0, H W1 + b1) W2 + b2; Y = LN(H + F); +A ist X + A und +F ist H + F. Die Zeilen sind in jedem Feld die Tokens: Attention mischt Zeilen, das FFN bearbeitet jede Zeile für sich. Das X jedes Blocks ist das Y des Blocks darüber.</translation>
    </message>
</context>
<context>
    <name>LearnedKernelFigure</name>
    <message>
        <source>A fixed kernel against a learned embedding</source>
        <translation>Ein fester Kern gegen eine gelernte Einbettung</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>y</source>
        <translation>y</translation>
    </message>
    <message>
        <source>%1 points (x_j, y_j)</source>
        <translation>%1 Punkte (x_j, y_j)</translation>
    </message>
    <message>
        <source>sin(x²) without the noise</source>
        <translation>sin(x²) ohne das Rauschen</translation>
    </message>
    <message>
        <source>fixed kernel, h = %1: error %2</source>
        <translation>fester Kern, h = %1: Fehler %2</translation>
    </message>
    <message>
        <source>learned φ_q, φ_k: error %1</source>
        <translation>gelernte φ_q, φ_k: Fehler %1</translation>
    </message>
    <message>
        <source>Each point predicted from the others</source>
        <translation>Jeder Punkt aus den anderen vorhergesagt</translation>
    </message>
    <message>
        <source>kernel width in x</source>
        <translation>Kernbreite in x</translation>
    </message>
    <message>
        <source>Kernel width: h against 1/|φ_k′(x)|</source>
        <translation>Kernbreite: h gegen 1/|φ_k′(x)|</translation>
    </message>
    <message>
        <source>Fixed kernel: weights w_ij</source>
        <translation>Fester Kern: Gewichte w_ij</translation>
    </message>
    <message>
        <source>key x_j</source>
        <translation>Key x_j</translation>
    </message>
    <message>
        <source>query x_i</source>
        <translation>Query x_i</translation>
    </message>
    <message>
        <source>Learned maps: weights w_ij</source>
        <translation>Gelernte Abbildungen: Gewichte w_ij</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Seed 004: a kernel machine tunes its kernel (here the width h, best of %1) on a fixed embedding; attention keeps its kernel, softmax of −(q − k)² / 2, and learns the embedding φ(x) = w·(x, x²): %2 Adam steps from h = 1 gave w_q = (%3, %4), w_k = (%5, %6). Its kernel is %7 wide at x = %8 and %9 at x = %10: wide where the curve is slow, narrow where it is fast.</source>
        <translation>Seed 004: Eine Kern-Maschine stimmt ihren Kern (hier die Breite h, die beste von %1) auf einer festen Einbettung ab; Attention behält ihren Kern, Softmax von −(q − k)² / 2, und lernt die Einbettung φ(x) = w·(x, x²): %2 Adam-Schritte ab h = 1 ergaben w_q = (%3, %4), w_k = (%5, %6). Ihr Kern ist bei x = %8 %7 breit und bei x = %10 %9: breit, wo die Kurve langsam ist, schmal, wo sie schnell ist.</translation>
    </message>
</context>
<context>
    <name>MixingFigure</name>
    <message>
        <source>Fixed weights against weights computed from the words</source>
        <translation>Feste Gewichte gegen aus den Wörtern berechnete Gewichte</translation>
    </message>
    <message>
        <source>fully connected</source>
        <translation>vollständig verbunden</translation>
    </message>
    <message>
        <source>convolution</source>
        <translation>Faltung</translation>
    </message>
    <message>
        <source>attention, head %1</source>
        <translation>Attention, Head %1</translation>
    </message>
    <message>
        <source>%1: before</source>
        <translation>%1: vorher</translation>
    </message>
    <message>
        <source>after</source>
        <translation>nachher</translation>
    </message>
    <message>
        <source>after − before</source>
        <translation>nachher − vorher</translation>
    </message>
    <message>
        <source>input position</source>
        <translation>Eingabeposition</translation>
    </message>
    <message>
        <source>output position</source>
        <translation>Ausgabeposition</translation>
    </message>
    <message>
        <source>“%1” becomes “%2”. Rows are output positions, columns input positions. The fully connected layer's weights belong to the positions and the convolution's to its window: neither moves (largest change %3 and %4). Attention computes its weights from the words, so they move (largest change %5).</source>
        <translation>Aus „%1“ wird „%2“. Zeilen sind Ausgabepositionen, Spalten Eingabepositionen. Die Gewichte der vollständig verbundenen Schicht gehören zu den Positionen, die der Faltung zu ihrem Fenster: Keine bewegt sich (größte Änderung %3 und %4). Die Attention berechnet ihre Gewichte aus den Wörtern, daher bewegen sie sich (größte Änderung %5).</translation>
    </message>
</context>
<context>
    <name>ModelFigures</name>
    <message>
        <source>Rollout through layer 1</source>
        <translation>Rollout durch Schicht 1</translation>
    </message>
    <message>
        <source>Rollout through layers 1–%1</source>
        <translation>Rollout durch die Schichten 1–%1</translation>
    </message>
    <message>
        <source>Layer %1: mean of its heads</source>
        <translation>Schicht %1: Mittel ihrer Heads</translation>
    </message>
    <message>
        <source>query</source>
        <translation>Query</translation>
    </message>
    <message>
        <source>key (input token)</source>
        <translation>Key (Eingabetoken)</translation>
    </message>
    <message>
        <source>share of input</source>
        <translation>Anteil der Eingabe</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Drop in log p when a head is switched off</source>
        <translation>Abfall von log p, wenn ein Head abgeschaltet wird</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>Nats</translation>
    </message>
    <message>
        <source> · 1 head off</source>
        <translation> · 1 Head aus</translation>
    </message>
    <message>
        <source> · edited</source>
        <translation> · bearbeitet</translation>
    </message>
    <message>
        <source> · %1 heads off</source>
        <translation> · %1 Heads aus</translation>
    </message>
    <message>
        <source>%1 · %2 · every head's attention%3</source>
        <translation>%1 · %2 · die Attention jedes Heads%3</translation>
    </message>
    <message>
        <source>%1 · %2 · attention rollout%3</source>
        <translation>%1 · %2 · Attention-Rollout%3</translation>
    </message>
    <message>
        <source>%1 · %2 · predictions%3</source>
        <translation>%1 · %2 · Vorhersagen%3</translation>
    </message>
    <message>
        <source>%1 · %2 · head importance for %3</source>
        <translation>%1 · %2 · Wichtigkeit der Heads für %3</translation>
    </message>
    <message>
        <source>%1 · head importance</source>
        <translation>%1 · Wichtigkeit der Heads</translation>
    </message>
    <message>
        <source>%1. Layer %2, head %3: %4 nats</source>
        <translation>%1. Schicht %2, Head %3: %4 Nats</translation>
    </message>
    <message>
        <source>Top token after each layer</source>
        <translation>Top-Token nach jeder Schicht</translation>
    </message>
    <message>
        <source>Rank of %1</source>
        <translation>Rang von %1</translation>
    </message>
    <message>
        <source>Rank of the model's prediction</source>
        <translation>Rang der Vorhersage des Modells</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>position (input token)</source>
        <translation>Position (Eingabetoken)</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <source>log₁₀ rank</source>
        <translation>log₁₀ Rang</translation>
    </message>
    <message>
        <source>Each head's output patched</source>
        <translation>Ausgabe jedes Heads gepatcht</translation>
    </message>
    <message>
        <source>Residual stream after each layer patched</source>
        <translation>Residualstrom nach jeder Schicht gepatcht</translation>
    </message>
    <message>
        <source>position (corrupted token; * where the clean one differs)</source>
        <translation>Position (Token des verfälschten Prompts; * wo der saubere abweicht)</translation>
    </message>
    <message>
        <source>fraction restored</source>
        <translation>wiederhergestellter Anteil</translation>
    </message>
    <message>
        <source>Each head's direct share of the logit</source>
        <translation>Direkter Anteil jedes Heads am Logit</translation>
    </message>
    <message>
        <source>logit</source>
        <translation>Logit</translation>
    </message>
    <message>
        <source>logit(%1) − logit(%2)</source>
        <translation>logit(%1) − logit(%2)</translation>
    </message>
    <message>
        <source>p(%1)</source>
        <translation>p(%1)</translation>
    </message>
    <message>
        <source>%1 · %2 · logit lens%3</source>
        <translation>%1 · %2 · Logit-Lens%3</translation>
    </message>
    <message>
        <source>%1 · activation patching · %2%3</source>
        <translation>%1 · Activation Patching · %2%3</translation>
    </message>
    <message>
        <source>%1 · activation patching</source>
        <translation>%1 · Activation Patching</translation>
    </message>
    <message>
        <source>%1 · %2 · direct logit attribution to %3%4</source>
        <translation>%1 · %2 · direkte Logit-Attribution zu %3%4</translation>
    </message>
    <message>
        <source>%1 · direct logit attribution</source>
        <translation>%1 · direkte Logit-Attribution</translation>
    </message>
</context>
<context>
    <name>PositionsFigure</name>
    <message>
        <source>Positions: none, so the layer cannot tell word order</source>
        <translation>Positionen: keine, also kennt die Schicht die Wortfolge nicht</translation>
    </message>
    <message>
        <source>Positional encodings: X = E + P</source>
        <translation>Positionskodierungen: X = E + P</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>Dimension</translation>
    </message>
    <message>
        <source>P: sin and cos of the position (−1 to 1)</source>
        <translation>P: Sinus und Kosinus der Position (−1 bis 1)</translation>
    </message>
    <message>
        <source>position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>P Pᵀ: how alike two positions are (±%1)</source>
        <translation>P Pᵀ: wie ähnlich zwei Positionen sind (±%1)</translation>
    </message>
    <message>
        <source>E: the words</source>
        <translation>E: die Wörter</translation>
    </message>
    <message>
        <source>X = E + P: what the projections see</source>
        <translation>X = E + P: was die Projektionen sehen</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>R(m) q · R(n) k</source>
        <translation>R(m) q · R(n) k</translation>
    </message>
    <message>
        <source>m − n: “%1” at m, “%2” at n</source>
        <translation>m − n: „%1“ bei m, „%2“ bei n</translation>
    </message>
    <message>
        <source>Rotary, head %1: score by distance</source>
        <translation>Rotary, Kopf %1: Score nach Abstand</translation>
    </message>
    <message>
        <source>%1: learned positions, the first %2</source>
        <translation>%1: gelernte Positionen, die ersten %2</translation>
    </message>
    <message>
        <source>P: the position table</source>
        <translation>P: die Positionstabelle</translation>
    </message>
    <message>
        <source>cosine of positions i and j</source>
        <translation>Kosinus der Positionen i und j</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>Kosinus</translation>
    </message>
    <message>
        <source>%1: rotary positions, %2 frequencies, θ = %3</source>
        <translation>%1: Rotary-Positionen, %2 Frequenzen, θ = %3</translation>
    </message>
    <message>
        <source>angle p · θ_i (radians)</source>
        <translation>Winkel p · θ_i (Bogenmaß)</translation>
    </message>
    <message>
        <source>frequency i</source>
        <translation>Frequenz i</translation>
    </message>
    <message>
        <source>position p</source>
        <translation>Position p</translation>
    </message>
    <message>
        <source>distance m − n</source>
        <translation>Abstand m − n</translation>
    </message>
    <message>
        <source>q = k = (1, …, 1) turned to m and n</source>
        <translation>q = k = (1, …, 1), gedreht zu m und n</translation>
    </message>
</context>
<context>
    <name>PredictionsPainter</name>
    <message>
        <source>Next token after %1</source>
        <translation>Nächstes Token nach %1</translation>
    </message>
    <message>
        <source>[MASK] at token %1</source>
        <translation>[MASK] an Token %1</translation>
    </message>
    <message>
        <source>%1 has no language-model head: it predicts nothing.</source>
        <translation>%1 hat keinen Sprachmodell-Head: es sagt nichts vorher.</translation>
    </message>
    <message>
        <source>The sentence has no [MASK] token: type one to see what the model fills in.</source>
        <translation>Der Satz hat kein [MASK]-Token: Tippen Sie eines ein, um zu sehen, was das Modell einsetzt.</translation>
    </message>
    <message>
        <source>%1 %2 (was %3)</source>
        <translation>%1 %2 (vorher %3)</translation>
    </message>
</context>
<context>
    <name>PresentationExtras</name>
    <message>
        <source>fixed h</source>
        <translation>festes h</translation>
    </message>
    <message>
        <source>learned φ</source>
        <translation>gelerntes φ</translation>
    </message>
    <message>
        <source>%1 noisy points of sin(x²)</source>
        <translation>%1 verrauschte Punkte von sin(x²)</translation>
    </message>
</context>
<context>
    <name>PresentationSteps</name>
    <message>
        <source>%1 &amp;gt; %2 (causal)</source>
        <translation>%1 &amp;gt; %2 (kausal)</translation>
    </message>
    <message>
        <source>%1 ∉ [%2 − %3, %2] (window)</source>
        <translation>%1 ∉ [%2 − %3, %2] (Fenster)</translation>
    </message>
    <message>
        <source>|%1 − %2| &amp;gt; %3 (window)</source>
        <translation>|%1 − %2| &amp;gt; %3 (Fenster)</translation>
    </message>
    <message>
        <source>key %1 is padding</source>
        <translation>Key %1 ist Padding</translation>
    </message>
    <message>
        <source>(%1, %2) masked by hand</source>
        <translation>(%1, %2) von Hand maskiert</translation>
    </message>
    <message>
        <source>%1 = %2 tokens %3</source>
        <translation>%1 = %2 Tokens %3</translation>
    </message>
    <message>
        <source>target: %1;%2source: %3</source>
        <translation>Ziel: %1;%2Quelle: %3</translation>
    </message>
    <message>
        <source>(no positions: %1 = 0)</source>
        <translation>(keine Positionen: %1 = 0)</translation>
    </message>
    <message>
        <source>(not scaled: the %1 score is used as it is)</source>
        <translation>(nicht skaliert: Der %1-Score wird unverändert verwendet)</translation>
    </message>
    <message>
        <source>dot-product</source>
        <translation>Skalarprodukt</translation>
    </message>
    <message>
        <source>no mask: every query sees every key%1(%2 = 0)</source>
        <translation>keine Maske: Jede Query sieht jeden Key%1(%2 = 0)</translation>
    </message>
    <message>
        <source>%1 + %2,%3%2 = %4 where %5</source>
        <translation>%1 + %2,%3%2 = %4, wo %5</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <source>1 if %1 = argmax</source>
        <translation>1, falls %1 = argmax</translation>
    </message>
    <message>
        <source> (%1), else 0</source>
        <translation> (%1), sonst 0</translation>
    </message>
    <message>
        <source>(no normalization; a masked cell is 0)</source>
        <translation>(keine Normierung; eine maskierte Zelle ist 0)</translation>
    </message>
    <message>
        <source> (%1 switched off)</source>
        <translation> (%1 abgeschaltet)</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Embeddings + positions</source>
        <translation>Einbettungen + Positionen</translation>
    </message>
    <message>
        <source>Queries, keys, values</source>
        <translation>Queries, Keys, Values</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Scores</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>Skalierung</translation>
    </message>
    <message>
        <source>Masking</source>
        <translation>Maskierung</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>Normierung</translation>
    </message>
    <message>
        <source>One query</source>
        <translation>Eine Query</translation>
    </message>
    <message>
        <source>Weighted sum</source>
        <translation>Gewichtete Summe</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>Alle Heads</translation>
    </message>
    <message>
        <source>Concatenation</source>
        <translation>Verkettung</translation>
    </message>
    <message>
        <source>Output projection</source>
        <translation>Ausgabeprojektion</translation>
    </message>
    <message>
        <source> + … (%1 terms)</source>
        <translation> + … (%1 Terme)</translation>
    </message>
    <message>
        <source>causal: %1 &amp;gt; %2</source>
        <translation>kausal: %1 &amp;gt; %2</translation>
    </message>
    <message>
        <source>outside the window</source>
        <translation>außerhalb des Fensters</translation>
    </message>
    <message>
        <source>padding</source>
        <translation>Padding</translation>
    </message>
    <message>
        <source>masked by hand</source>
        <translation>von Hand maskiert</translation>
    </message>
    <message>
        <source> (query %1 of %2)</source>
        <translation> (Query %1 von %2)</translation>
    </message>
    <message>
        <source> (source token %1 of %2)</source>
        <translation> (Quelltoken %1 von %2)</translation>
    </message>
    <message>
        <source> (not scaled)</source>
        <translation> (nicht skaliert)</translation>
    </message>
    <message>
        <source> (not masked)</source>
        <translation> (nicht maskiert)</translation>
    </message>
    <message>
        <source>0 (every key of query %1 is masked)</source>
        <translation>0 (jeder Key von Query %1 ist maskiert)</translation>
    </message>
    <message>
        <source> (the largest score of row %1 is key %2’s, %3)</source>
        <translation> (der größte Score von Zeile %1 ist der von Key %2, %3)</translation>
    </message>
    <message>
        <source>head %1: %2</source>
        <translation>Head %1: %2</translation>
    </message>
    <message>
        <source> in </source>
        <translation> in </translation>
    </message>
    <message>
        <source> (%1 heads × %2 values)</source>
        <translation> (%1 Heads × %2 Values)</translation>
    </message>
    <message>
        <source>%1 = [%2 … %3]: one projection cut into %4 heads</source>
        <translation>%1 = [%2 … %3]: eine Projektion, in %4 Heads geteilt</translation>
    </message>
    <message>
        <source>; softmax would keep %1 there, the argmax drops %2</source>
        <translation>; Softmax behielte dort %1, die Argmax verwirft %2</translation>
    </message>
    <message>
        <source>LN(%1) = (%1 − μ) / √(σ%2 + ε) in each row (ε = %3)</source>
        <translation>LN(%1) = (%1 − μ) / √(σ%2 + ε) in jeder Zeile (ε = %3)</translation>
    </message>
    <message>
        <source>(%1 = %2 → %3 = %4 → %2: each row alone)</source>
        <translation>(%1 = %2 → %3 = %4 → %2: jede Zeile für sich)</translation>
    </message>
    <message>
        <source>(block %1: %2)</source>
        <translation>(Block %1: %2)</translation>
    </message>
    <message>
        <source>%1 is the output of the stack of %2 blocks</source>
        <translation>%1 ist die Ausgabe des Stapels aus %2 Blöcken</translation>
    </message>
    <message>
        <source>block %1 computes %2 again</source>
        <translation>Block %1 berechnet wieder %2</translation>
    </message>
    <message>
        <source>largest difference of the two: %1</source>
        <translation>größter Unterschied der beiden: %1</translation>
    </message>
    <message>
        <source>fully connected: %1 is drawn once and tied to the positions; it never reads the words</source>
        <translation>vollständig verbunden: %1 wird einmal gezogen und ist an die Positionen gebunden; die Wörter liest es nie</translation>
    </message>
    <message>
        <source>convolution: %1 = ¼, ½, ¼ for %2 = %3 − 1, %3, %3 + 1, one window slid along the sentence</source>
        <translation>Faltung: %1 = ¼, ½, ¼ für %2 = %3 − 1, %3, %3 + 1, ein Fenster, über den Satz geschoben</translation>
    </message>
    <message>
        <source>attention: the weights are computed from the words</source>
        <translation>Attention: die Gewichte werden aus den Wörtern berechnet</translation>
    </message>
    <message>
        <source>%1 → %2: the fixed weights stay, attention's move</source>
        <translation>%1 → %2: die festen Gewichte bleiben, die der Attention bewegen sich</translation>
    </message>
    <message>
        <source>largest change: fully connected %1, convolution %2, attention %3</source>
        <translation>größte Änderung: vollständig verbunden %1, Faltung %2, Attention %3</translation>
    </message>
    <message>
        <source>%1 = %2 before, %3 after</source>
        <translation>%1 = %2 vorher, %3 nachher</translation>
    </message>
    <message>
        <source>largest change in the matrix: %1</source>
        <translation>größte Änderung in der Matrix: %1</translation>
    </message>
    <message>
        <source>Add &amp; Norm</source>
        <translation>Add &amp; Norm</translation>
    </message>
    <message>
        <source>Feed-forward</source>
        <translation>Feed-Forward</translation>
    </message>
    <message>
        <source>Add &amp; Norm, again</source>
        <translation>Add &amp; Norm, noch einmal</translation>
    </message>
    <message>
        <source>The block's output</source>
        <translation>Die Ausgabe des Blocks</translation>
    </message>
    <message>
        <source>Fixed weights: fully connected</source>
        <translation>Feste Gewichte: vollständig verbunden</translation>
    </message>
    <message>
        <source>Fixed window: convolution</source>
        <translation>Festes Fenster: Faltung</translation>
    </message>
    <message>
        <source>Weights from the words: attention</source>
        <translation>Gewichte aus den Wörtern: Attention</translation>
    </message>
    <message>
        <source>What moves when a word changes</source>
        <translation>Was sich bewegt, wenn sich ein Wort ändert</translation>
    </message>
    <message>
        <source>%1 at %2, %3 at %4</source>
        <translation>%1 bei %2, %3 bei %4</translation>
    </message>
    <message>
        <source>largest weight: %1</source>
        <translation>größtes Gewicht: %1</translation>
    </message>
    <message>
        <source>one width everywhere: %1 = %2</source>
        <translation>überall eine Breite: %1 = %2</translation>
    </message>
    <message>
        <source>Kernel machines adjust the kernel and fix the embedding; attention fixes the kernel and learns the embedding.</source>
        <translation>Kernmaschinen passen den Kern an und halten die Einbettung fest; Attention hält den Kern fest und lernt die Einbettung.</translation>
    </message>
    <message>
        <source>width %1</source>
        <translation>Breite %1</translation>
    </message>
    <message>
        <source>width 1 / |φ&lt;sub&gt;k&lt;/sub&gt;′(x)|: %1</source>
        <translation>Breite 1 / |φ&lt;sub&gt;k&lt;/sub&gt;′(x)|: %1</translation>
    </message>
    <message>
        <source>leave-one-out squared error: fixed kernel %1, learned maps %2</source>
        <translation>quadratischer Leave-one-out-Fehler: fester Kern %1, gelernte Abbildungen %2</translation>
    </message>
    <message>
        <source>kernel machine: %1, %2 = %3</source>
        <translation>Kernmaschine: %1, %2 = %3</translation>
    </message>
    <message>
        <source>attention: %1</source>
        <translation>Attention: %1</translation>
    </message>
    <message>
        <source>Fixed kernel: one width</source>
        <translation>Fester Kern: eine Breite</translation>
    </message>
    <message>
        <source>Learned maps: a width for each place</source>
        <translation>Gelernte Abbildungen: eine Breite für jede Stelle</translation>
    </message>
    <message>
        <source>The fitted curves</source>
        <translation>Die angepassten Kurven</translation>
    </message>
    <message>
        <source>Learn the kernel or the embedding</source>
        <translation>Den Kern lernen oder die Einbettung</translation>
    </message>
</context>
<context>
    <name>ProjectionsFigure</name>
    <message>
        <source>One projection cut into heads: W^Q is d_model × h·d_k = %1 × %2</source>
        <translation>Eine Projektion, in Heads geteilt: W^Q ist d_model × h·d_k = %1 × %2</translation>
    </message>
    <message>
        <source>head.column</source>
        <translation>Head.Spalte</translation>
    </message>
    <message>
        <source>W^Q = [W_1^Q … W_%1^Q]</source>
        <translation>W^Q = [W_1^Q … W_%1^Q]</translation>
    </message>
    <message>
        <source>input dimension</source>
        <translation>Eingabedimension</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Q = X W^Q, one product</source>
        <translation>Q = X W^Q, ein Produkt</translation>
    </message>
    <message>
        <source>Q_%1 = X W_%1^Q</source>
        <translation>Q_%1 = X W_%1^Q</translation>
    </message>
    <message>
        <source>column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>d_k = d_model / h = %1 / %2 = %3.</source>
        <translation>d_k = d_model / h = %1 / %2 = %3.</translation>
    </message>
    <message>
        <source>Here h·d_k = %1 is not d_model = %2: W^Q is d_model × h·d_k.</source>
        <translation>Hier ist h·d_k = %1 nicht d_model = %2: W^Q ist d_model × h·d_k.</translation>
    </message>
    <message>
        <source>Columns %1.1–%1.%2 of X W^Q are X W_%1^Q: the largest difference of any head's block is %3. %4 The heads' outputs are joined the same way, so W^O is h·d_v × d_model = %5 × %6.</source>
        <translation>Die Spalten %1.1–%1.%2 von X W^Q sind X W_%1^Q: Die größte Abweichung im Block eines Heads ist %3. %4 Die Ausgaben der Heads werden ebenso aneinandergefügt, daher ist W^O h·d_v × d_model = %5 × %6.</translation>
    </message>
    <message>
        <source>Head %1 as two d_model × d_model matrices: W_%1^Q W_%1^Kᵀ and W_%1^V W_%1^O</source>
        <translation>Head %1 als zwei d_model × d_model-Matrizen: W_%1^Q W_%1^Kᵀ und W_%1^V W_%1^O</translation>
    </message>
    <message>
        <source>QK: W^Q W^Kᵀ, rank %1 (d_k = %2)</source>
        <translation>QK: W^Q W^Kᵀ, Rang %1 (d_k = %2)</translation>
    </message>
    <message>
        <source>key's input dimension</source>
        <translation>Eingabedimension des Keys</translation>
    </message>
    <message>
        <source>query's input dimension</source>
        <translation>Eingabedimension der Query</translation>
    </message>
    <message>
        <source>OV: W^V W^O, rank %1 (d_v = %2)</source>
        <translation>OV: W^V W^O, Rang %1 (d_v = %2)</translation>
    </message>
    <message>
        <source>output dimension</source>
        <translation>Ausgabedimension</translation>
    </message>
    <message>
        <source>value's input dimension</source>
        <translation>Eingabedimension des Values</translation>
    </message>
    <message>
        <source>The scores x_a (W^Q W^Kᵀ) x_bᵀ are q_a · k_b (largest difference %1).</source>
        <translation>Die Scores x_a (W^Q W^Kᵀ) x_bᵀ sind q_a · k_b (größte Abweichung %1).</translation>
    </message>
    <message>
        <source>The score here is not q · k alone (biases, rotation or another score), so only the OV identity is checked.</source>
        <translation>Der Score ist hier nicht q · k allein (Biases, Rotation oder ein anderer Score), daher wird nur die OV-Identität geprüft.</translation>
    </message>
    <message>
        <source>%1 The output written as ∑ᵢ Aᵢ X W_i^V W_i^O + b^O is Concat(H) W^O + b^O (largest difference %2). Only the products matter: W^V R and R⁻¹ W^O give the same OV for any invertible R, so one matrix of each pair is redundant; the products have rank at most d_k and d_v, not d_model = %3.</source>
        <translation>%1 Die Ausgabe, geschrieben als ∑ᵢ Aᵢ X W_i^V W_i^O + b^O, ist Concat(H) W^O + b^O (größte Abweichung %2). Nur die Produkte zählen: W^V R und R⁻¹ W^O ergeben für jedes invertierbare R dasselbe OV, daher ist je eine Matrix eines Paars redundant; die Produkte haben höchstens Rang d_k bzw. d_v, nicht d_model = %3.</translation>
    </message>
    <message>
        <source>Head %1: the bias as a row of W, 1 as a column of X</source>
        <translation>Head %1: der Bias als Zeile von W, 1 als Spalte von X</translation>
    </message>
    <message>
        <source>[X 1]</source>
        <translation>[X 1]</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>Dimension</translation>
    </message>
    <message>
        <source>[W^Q; b^Q]</source>
        <translation>[W^Q; b^Q]</translation>
    </message>
    <message>
        <source>Q = X W^Q + b^Q</source>
        <translation>Q = X W^Q + b^Q</translation>
    </message>
    <message>
        <source>This head has no bias: the extra row is zeros. </source>
        <translation>Dieser Head hat keinen Bias: Die zusätzliche Zeile ist null. </translation>
    </message>
    <message>
        <source>The same for K and V: the largest difference from the layer's own Q, K and V is %1.</source>
        <translation>Ebenso für K und V: Die größte Abweichung von Q, K und V der Schicht ist %1.</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Edit text</source>
        <translation>Text bearbeiten</translation>
    </message>
    <message>
        <source>Edit source sentence</source>
        <translation>Quellsatz bearbeiten</translation>
    </message>
    <message>
        <source>Change tokenizer</source>
        <translation>Tokenisierung ändern</translation>
    </message>
    <message>
        <source>Change padding</source>
        <translation>Padding ändern</translation>
    </message>
    <message>
        <source>Change score</source>
        <translation>Score ändern</translation>
    </message>
    <message>
        <source>Change temperature</source>
        <translation>Temperatur ändern</translation>
    </message>
    <message>
        <source>Change mask</source>
        <translation>Maske ändern</translation>
    </message>
    <message>
        <source>Switch head %1</source>
        <translation>Head %1 umschalten</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>%1 bearbeiten</translation>
    </message>
    <message>
        <source>Edit embeddings</source>
        <translation>Einbettungen bearbeiten</translation>
    </message>
    <message>
        <source>Edit positional encodings</source>
        <translation>Positionskodierungen bearbeiten</translation>
    </message>
    <message>
        <source>Change model shape</source>
        <translation>Modellform ändern</translation>
    </message>
    <message>
        <source>Edit title</source>
        <translation>Titel bearbeiten</translation>
    </message>
    <message>
        <source> · head %1</source>
        <translation> · Head %1</translation>
    </message>
    <message>
        <source>additive w</source>
        <translation>additives w</translation>
    </message>
    <message>
        <source>bilinear M</source>
        <translation>bilineares M</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>Einbettungen</translation>
    </message>
    <message>
        <source>Positional encodings</source>
        <translation>Positionskodierungen</translation>
    </message>
    <message>
        <source>not in use</source>
        <translation>nicht in Gebrauch</translation>
    </message>
    <message>
        <source>Vulkan %1</source>
        <translation>Vulkan %1</translation>
    </message>
    <message>
        <source>, driver %1</source>
        <translation>, Treiber %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>hashed</source>
        <translation>gehasht</translation>
    </message>
    <message>
        <source>one-hot</source>
        <translation>One-Hot</translation>
    </message>
    <message>
        <source>table</source>
        <translation>Tabelle</translation>
    </message>
    <message>
        <source>word-vector file</source>
        <translation>Wortvektordatei</translation>
    </message>
    <message>
        <source>A pseudo-random N(0, 1) vector per word, the same for the same word and seed</source>
        <translation>Ein pseudozufälliger N(0, 1)-Vektor je Wort, derselbe für dasselbe Wort und denselben Startwert</translation>
    </message>
    <message>
        <source>The vectors in use now, kept in the scene and editable under Weights &gt; Embeddings; words not in the table get hashed vectors</source>
        <translation>Die jetzt verwendeten Vektoren, in der Szene gespeichert und unter Gewichte &gt; Einbettungen editierbar; Wörter, die nicht in der Tabelle stehen, erhalten gehashte Vektoren</translation>
    </message>
    <message>
        <source>A GloVe or word2vec text file with d_model dimensions; words it lacks get hashed vectors</source>
        <translation>Eine GloVe- oder word2vec-Textdatei mit d_model Dimensionen; Wörter, die ihr fehlen, erhalten gehashte Vektoren</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>sinusförmig</translation>
    </message>
    <message>
        <source>Nothing is added: the order of the words does not count</source>
        <translation>Nichts wird addiert: Die Reihenfolge der Wörter zählt nicht</translation>
    </message>
    <message>
        <source>PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(…) (Vaswani et al. 2017, 3.5)</source>
        <translation>PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(…) (Vaswani u. a. 2017, 3.5)</translation>
    </message>
    <message>
        <source>The rows in use now, kept in the scene and editable under Weights &gt; Positions; positions past the table are sinusoidal</source>
        <translation>Die jetzt verwendeten Zeilen, in der Szene gespeichert und unter Gewichte &gt; Positionen editierbar; Positionen jenseits der Tabelle sind sinusförmig</translation>
    </message>
    <message>
        <source>Attention scenes (*.attention.json *.json)</source>
        <translation>Attention-Szenen (*.attention.json *.json)</translation>
    </message>
    <message>
        <source>Dot product</source>
        <translation>Skalarprodukt</translation>
    </message>
    <message>
        <source>Scaled dot product</source>
        <translation>Skaliertes Skalarprodukt</translation>
    </message>
    <message>
        <source>Additive (Bahdanau)</source>
        <translation>Additiv (Bahdanau)</translation>
    </message>
    <message>
        <source>Hard (argmax)</source>
        <translation>Hart (argmax)</translation>
    </message>
    <message>
        <source>Bilinear (Luong)</source>
        <translation>Bilinear (Luong)</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>Kosinus</translation>
    </message>
    <message>
        <source>e_ij = q_i · k_j</source>
        <translation>e_ij = q_i · k_j</translation>
    </message>
    <message>
        <source>e_ij = q_i · k_j / √d_k (Vaswani et al. 2017, eq. 1)</source>
        <translation>e_ij = q_i · k_j / √d_k (Vaswani u. a. 2017, Gl. 1)</translation>
    </message>
    <message>
        <source>e_ij = wᵀ tanh(q_i + k_j) (Bahdanau et al. 2014)</source>
        <translation>e_ij = wᵀ tanh(q_i + k_j) (Bahdanau u. a. 2014)</translation>
    </message>
    <message>
        <source>Scaled dot product, then a one-hot row at the largest score</source>
        <translation>Skaliertes Skalarprodukt, dann eine One-Hot-Zeile beim größten Score</translation>
    </message>
    <message>
        <source>e_ij = q_i · k_j / (|q_i| |k_j|)</source>
        <translation>e_ij = q_i · k_j / (|q_i| |k_j|)</translation>
    </message>
    <message>
        <source>Q = X W^q: a row per input dimension, a column per query dimension.</source>
        <translation>Q = X W^q: eine Zeile je Eingabedimension, eine Spalte je Query-Dimension.</translation>
    </message>
    <message>
        <source>K = X W^k: a row per input dimension, a column per key dimension.</source>
        <translation>K = X W^k: eine Zeile je Eingabedimension, eine Spalte je Key-Dimension.</translation>
    </message>
    <message>
        <source>V = X W^v: a row per input dimension, a column per value dimension.</source>
        <translation>V = X W^v: eine Zeile je Eingabedimension, eine Spalte je Value-Dimension.</translation>
    </message>
    <message>
        <source>w of the additive score wᵀ tanh(q + k); used when the score is Additive.</source>
        <translation>w des additiven Scores wᵀ tanh(q + k); verwendet, wenn der Score Additiv ist.</translation>
    </message>
    <message>
        <source>M of the bilinear score qᵀ M k; used when the score is Bilinear. M = I is the dot product.</source>
        <translation>M des bilinearen Scores qᵀ M k; verwendet, wenn der Score Bilinear ist. M = I ist das Skalarprodukt.</translation>
    </message>
    <message>
        <source>Output = concat(head₁ … head_h) W^O: a row per value dimension of each head.</source>
        <translation>Ausgabe = concat(head₁ … head_h) W^O: eine Zeile je Value-Dimension jedes Heads.</translation>
    </message>
    <message>
        <source>A row per distinct token. Editing keeps these vectors in the scene as a table; tokens typed later get hashed vectors.</source>
        <translation>Eine Zeile je verschiedenem Token. Beim Bearbeiten behält die Szene diese Vektoren als Tabelle; später getippte Tokens erhalten gehashte Vektoren.</translation>
    </message>
    <message>
        <source>A row per position, added to the embeddings. Editing keeps them in the scene as a table.</source>
        <translation>Eine Zeile je Position, zu den Einbettungen addiert. Beim Bearbeiten behält die Szene sie als Tabelle.</translation>
    </message>
    <message>
        <source>%1 · head %2</source>
        <translation>%1 · Head %2</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>Satz</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>Einbettung</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Positionen</translation>
    </message>
    <message>
        <source>Padding</source>
        <translation>Padding</translation>
    </message>
    <message>
        <source>Heads h</source>
        <translation>Anzahl Heads h</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Startwert</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Local window</source>
        <translation>Lokales Fenster</translation>
    </message>
    <message>
        <source>Custom cells</source>
        <translation>Eigene Zellen</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokenisierung</translation>
    </message>
    <message>
        <source>Mean of heads</source>
        <translation>Mittel der Heads</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>At %1 DPI this figure is %2 × %3 pixels. A side must be %4 to %5 pixels: change the size or the DPI.</source>
        <translation>Bei %1 DPI ist diese Abbildung %2 × %3 Pixel groß. Eine Seite muss %4 bis %5 Pixel lang sein: Ändern Sie die Größe oder die DPI.</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>SVG vector image (*.svg)</source>
        <translation>SVG-Vektorgrafik (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF-Dokument (*.pdf)</translation>
    </message>
    <message>
        <source>Edit sentence</source>
        <translation>Satz bearbeiten</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>ReLU, normalized</source>
        <translation>ReLU, normiert</translation>
    </message>
    <message>
        <source>Sparsemax</source>
        <translation>Sparsemax</translation>
    </message>
    <message>
        <source>No normalization</source>
        <translation>Keine Normierung</translation>
    </message>
    <message>
        <source>Hashed embeddings</source>
        <translation>Gehashte Einbettungen</translation>
    </message>
    <message>
        <source>One-hot embeddings</source>
        <translation>One-Hot-Einbettungen</translation>
    </message>
    <message>
        <source>Embedding table</source>
        <translation>Einbettungstabelle</translation>
    </message>
    <message>
        <source>Word vectors</source>
        <translation>Wortvektoren</translation>
    </message>
    <message>
        <source>No positions</source>
        <translation>Keine Positionen</translation>
    </message>
    <message>
        <source>Sinusoidal positions</source>
        <translation>Sinusförmige Positionen</translation>
    </message>
    <message>
        <source>Position table</source>
        <translation>Positionstabelle</translation>
    </message>
    <message>
        <source>Causal mask off</source>
        <translation>Kausale Maske aus</translation>
    </message>
    <message>
        <source>Causal mask on</source>
        <translation>Kausale Maske an</translation>
    </message>
    <message>
        <source>The scene as opened</source>
        <translation>Die Szene wie geöffnet</translation>
    </message>
    <message>
        <source>How each query and key give a score e_ij: q·k, q·k/√d_k, wᵀ tanh(q + k), qᵀMk or the cosine; Hard is the scaled score with one-hot weights</source>
        <translation>Wie Query und Key einen Score e_ij ergeben: q·k, q·k/√d_k, wᵀ tanh(q + k), qᵀMk oder der Kosinus; Hart ist der skalierte Score mit One-Hot-Gewichten</translation>
    </message>
    <message>
        <source>How each row of scores becomes weights: softmax, one-hot at the largest score, ReLU, sparsemax, or the scores themselves</source>
        <translation>Wie jede Zeile der Scores zu Gewichten wird: Softmax, One-Hot beim größten Score, ReLU, Sparsemax oder die Scores selbst</translation>
    </message>
    <message>
        <source>Scores are divided by the temperature before normalizing: below 1 sharpens the weights towards one-hot, above 1 flattens them. Logarithmic, 0.05 to 20.</source>
        <translation>Die Scores werden vor dem Normieren durch die Temperatur geteilt: unter 1 schärft die Gewichte in Richtung One-Hot, über 1 glättet sie. Logarithmisch, 0,05 bis 20.</translation>
    </message>
    <message>
        <source>The temperature typed exactly, also beyond the slider's range</source>
        <translation>Die Temperatur genau eingetippt, auch jenseits des Schiebereglers</translation>
    </message>
    <message>
        <source>e_ij = q_iᵀ M k_j (Luong et al. 2015, "general"). With M = I, the default, this is q_i · k_j: the figures equal dot-product attention until M is edited.</source>
        <translation>e_ij = q_iᵀ M k_j (Luong u. a. 2015, „general“). Mit M = I, der Voreinstellung, ist das q_i · k_j: Die Abbildungen gleichen der Skalarprodukt-Attention, bis M bearbeitet wird.</translation>
    </message>
    <message>
        <source>One dimension per word, so different words share nothing: the scene keeps its words' dimensions; other words, or more words than d_model, get hashed vectors</source>
        <translation>Eine Dimension je Wort, sodass verschiedene Wörter nichts teilen: Die Szene behält die Dimensionen ihrer Wörter; andere Wörter oder mehr Wörter als d_model erhalten gehashte Vektoren</translation>
    </message>
    <message>
        <source>Change layers</source>
        <translation>Schichten ändern</translation>
    </message>
    <message>
        <source> · layer %1</source>
        <translation> · Schicht %1</translation>
    </message>
    <message>
        <source>The block's feed-forward layer, first half: max(0, H W_1 + b_1), a row of W_1 per model dimension, a column per hidden unit.</source>
        <translation>Die Feed-Forward-Schicht des Blocks, erste Hälfte: max(0, H W_1 + b_1), eine Zeile von W_1 je Modelldimension, eine Spalte je verborgener Einheit.</translation>
    </message>
    <message>
        <source>The block's feed-forward layer, second half: (…) W_2 + b_2, a row of W_2 per hidden unit, a column per model dimension.</source>
        <translation>Die Feed-Forward-Schicht des Blocks, zweite Hälfte: (…) W_2 + b_2, eine Zeile von W_2 je verborgener Einheit, eine Spalte je Modelldimension.</translation>
    </message>
</context>
<context>
    <name>Seq2SeqSlides</name>
    <message>
        <source>Step %1 of %2 · The encoder</source>
        <translation>Schritt %1 von %2 · Der Encoder</translation>
    </message>
    <message>
        <source>Step %1 of %2 · Decoder step %3 → “%4”</source>
        <translation>Schritt %1 von %2 · Decoder-Schritt %3 → „%4“</translation>
    </message>
    <message>
        <source>&lt;i&gt;h&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt; = [%1&lt;sub&gt;→&lt;/sub&gt;(&lt;i&gt;E x&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;, …); %1&lt;sub&gt;←&lt;/sub&gt;(&lt;i&gt;E x&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;, …)]</source>
        <translation>&lt;i&gt;h&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt; = [%1&lt;sub&gt;→&lt;/sub&gt;(&lt;i&gt;E x&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;, …); %1&lt;sub&gt;←&lt;/sub&gt;(&lt;i&gt;E x&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;, …)]</translation>
    </message>
    <message>
        <source>&lt;i&gt;h&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt; = %1(&lt;i&gt;E x&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;, &lt;i&gt;h&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;−1&lt;/sub&gt;)</source>
        <translation>&lt;i&gt;h&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt; = %1(&lt;i&gt;E x&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;, &lt;i&gt;h&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;−1&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>%1 tokens with EOS: %1 states of %2 numbers</source>
        <translation>%1 Tokens mit EOS: %1 Zustände aus je %2 Zahlen</translation>
    </message>
    <message>
        <source>the decoder starts from the last state</source>
        <translation>der Decoder beginnt mit dem letzten Zustand</translation>
    </message>
    <message>
        <source>&lt;i&gt;h&lt;/i&gt;&lt;sub&gt;%1&lt;/sub&gt; = %2</source>
        <translation>&lt;i&gt;h&lt;/i&gt;&lt;sub&gt;%1&lt;/sub&gt; = %2</translation>
    </message>
    <message>
        <source>&lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %1(relu(&lt;i&gt;E y&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;), &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;): no scores, no context</source>
        <translation>&lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %1(relu(&lt;i&gt;E y&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;), &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;): keine Scores, kein Kontext</translation>
    </message>
    <message>
        <source>reads “%1”: &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %2</source>
        <translation>liest „%1“: &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %2</translation>
    </message>
    <message>
        <source>highest: &lt;i&gt;e&lt;/i&gt;&lt;sub&gt;%1&lt;/sub&gt; = %2 (“%3”)</source>
        <translation>höchster: &lt;i&gt;e&lt;/i&gt;&lt;sub&gt;%1&lt;/sub&gt; = %2 („%3“)</translation>
    </message>
    <message>
        <source>hard: &lt;i&gt;α&lt;/i&gt; = one-hot(argmax&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt; &lt;i&gt;e&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;)</source>
        <translation>hart: &lt;i&gt;α&lt;/i&gt; = one-hot(argmax&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt; &lt;i&gt;e&lt;/i&gt;&lt;sub&gt;&lt;i&gt;j&lt;/i&gt;&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>&lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %1([&lt;i&gt;E y&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;; &lt;i&gt;c&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt;], &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;)</source>
        <translation>&lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %1([&lt;i&gt;E y&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;; &lt;i&gt;c&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt;], &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;−1&lt;/sub&gt;)</translation>
    </message>
    <message>
        <source>reads [“%1”; &lt;i&gt;c&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt;]: &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %2</source>
        <translation>liest [„%1“; &lt;i&gt;c&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt;]: &lt;i&gt;s&lt;/i&gt;&lt;sub&gt;&lt;i&gt;t&lt;/i&gt;&lt;/sub&gt; = %2</translation>
    </message>
    <message>
        <source>chosen: “%1”, &lt;i&gt;p&lt;/i&gt; = %2</source>
        <translation>gewählt: „%1“, &lt;i&gt;p&lt;/i&gt; = %2</translation>
    </message>
    <message>
        <source>encoder states h (a row per source token)</source>
        <translation>Encoder-Zustände h (eine Zeile pro Quell-Token)</translation>
    </message>
    <message>
        <source>scores e</source>
        <translation>Scores e</translation>
    </message>
    <message>
        <source>weights α</source>
        <translation>Gewichte α</translation>
    </message>
    <message>
        <source>next word: the likeliest five</source>
        <translation>nächstes Wort: die fünf wahrscheinlichsten</translation>
    </message>
</context>
<context>
    <name>Seq2SeqTrainJob</name>
    <message>
        <source>Not enough memory to train the model.</source>
        <translation>Nicht genug Speicher, um das Modell zu trainieren.</translation>
    </message>
</context>
<context>
    <name>SlideBuilder</name>
    <message>
        <source>Step %1 of %2 · %3</source>
        <translation>Schritt %1 von %2 · %3</translation>
    </message>
    <message>
        <source>head %1 of %2 · </source>
        <translation>Head %1 von %2 · </translation>
    </message>
    <message>
        <source>E  (embeddings)</source>
        <translation>E  (Einbettungen)</translation>
    </message>
    <message>
        <source>P  (positions)</source>
        <translation>P  (Positionen)</translation>
    </message>
    <message>
        <source>Xₛ (source)</source>
        <translation>Xₛ (Quelle)</translation>
    </message>
    <message>
        <source>scores e</source>
        <translation>Scores e</translation>
    </message>
    <message>
        <source>scaled scores s</source>
        <translation>skalierte Scores s</translation>
    </message>
    <message>
        <source>masked scores s + M</source>
        <translation>maskierte Scores s + M</translation>
    </message>
    <message>
        <source>weights α</source>
        <translation>Gewichte α</translation>
    </message>
    <message>
        <source>head %1%2</source>
        <translation>Head %1%2</translation>
    </message>
    <message>
        <source> (off)</source>
        <translation> (aus)</translation>
    </message>
    <message>
        <source>output = Concat · Wᴼ</source>
        <translation>Ausgabe = Concat · Wᴼ</translation>
    </message>
    <message>
        <source>target: the queries</source>
        <translation>Ziel: die Queries</translation>
    </message>
    <message>
        <source>source: the keys and values</source>
        <translation>Quelle: die Keys und Values</translation>
    </message>
    <message>
        <source>long tokens cut to %1 characters</source>
        <translation>lange Tokens auf %1 Zeichen gekürzt</translation>
    </message>
    <message>
        <source>labels: every 2nd token</source>
        <translation>Beschriftung: jedes 2. Token</translation>
    </message>
    <message>
        <source>labels: every %1th token</source>
        <translation>Beschriftung: jedes %1. Token</translation>
    </message>
    <message>
        <source>v and αv: the first %1 of %2 values</source>
        <translation>v und αv: die ersten %1 von %2 Werten</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>score s</source>
        <translation>Score s</translation>
    </message>
    <message>
        <source>weight α</source>
        <translation>Gewicht α</translation>
    </message>
    <message>
        <source>value v</source>
        <translation>Value v</translation>
    </message>
    <message>
        <source>labels: every 2nd key</source>
        <translation>Beschriftung: jeder 2. Key</translation>
    </message>
    <message>
        <source>labels: every %1th key</source>
        <translation>Beschriftung: jeder %1. Key</translation>
    </message>
    <message>
        <source>o = ∑ αv  (query %1, “%2”)</source>
        <translation>o = ∑ αv  (Query %1, „%2“)</translation>
    </message>
    <message>
        <source>o = ∑ αv</source>
        <translation>o = ∑ αv</translation>
    </message>
    <message>
        <source>%1: the stack's output</source>
        <translation>%1: die Ausgabe des Stapels</translation>
    </message>
    <message>
        <source>%1: block %2's output</source>
        <translation>%1: Ausgabe von Block %2</translation>
    </message>
    <message>
        <source>%1 = %2: block %3's input</source>
        <translation>%1 = %2: Eingabe von Block %3</translation>
    </message>
    <message>
        <source>block %1, head %2: α</source>
        <translation>Block %1, Head %2: α</translation>
    </message>
    <message>
        <source>fully connected</source>
        <translation>vollständig verbunden</translation>
    </message>
    <message>
        <source>convolution</source>
        <translation>Faltung</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>%1: change</source>
        <translation>%1: Änderung</translation>
    </message>
    <message>
        <source>%1 before</source>
        <translation>%1 vorher</translation>
    </message>
    <message>
        <source>%1 after</source>
        <translation>%1 nachher</translation>
    </message>
    <message>
        <source>after − before</source>
        <translation>nachher − vorher</translation>
    </message>
    <message>
        <source>fixed kernel: h = %1 everywhere</source>
        <translation>fester Kern: überall h = %1</translation>
    </message>
    <message>
        <source>learned maps: width %1 at %2, %3 at %4</source>
        <translation>gelernte Abbildungen: Breite %1 bei %2, %3 bei %4</translation>
    </message>
    <message>
        <source>the data and both fits at each point</source>
        <translation>die Daten und beide Anpassungen an jedem Punkt</translation>
    </message>
</context>
<context>
    <name>StatusLabels</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Computing on the CPU: this computer has no graphics card the app can use.</source>
        <translation>Berechnung auf der CPU: Dieser Computer hat keine Grafikkarte, die das Programm nutzen kann.</translation>
    </message>
</context>
<context>
    <name>TrainFigure</name>
    <message>
        <source>Training on the %1 task: step %2, loss %3, %4 % of rows attend where the task asks</source>
        <translation>Training für die Aufgabe %1: Schritt %2, Verlust %3, %4 % der Zeilen achten dorthin, wo die Aufgabe es verlangt</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>the weights now</source>
        <translation>die Gewichte jetzt</translation>
    </message>
    <message>
        <source>head %1 now</source>
        <translation>Kopf %1 jetzt</translation>
    </message>
    <message>
        <source>what the task asks</source>
        <translation>was die Aufgabe verlangt</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>Attention-Gewicht</translation>
    </message>
    <message>
        <source>induction (last of %1 stacked blocks)</source>
        <translation>Induktion (letzter von %1 gestapelten Blöcken)</translation>
    </message>
</context>
<context>
    <name>attn::ui</name>
    <message>
        <source>Alignment: attention of each output word over the source</source>
        <translation>Ausrichtung: Attention jedes Ausgabeworts über die Quelle</translation>
    </message>
    <message>
        <source>output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>Attention-Gewicht</translation>
    </message>
    <message>
        <source>Encoder states h_j (the keys and values)</source>
        <translation>Encoder-Zustände h_j (die Keys und Values)</translation>
    </message>
    <message>
        <source>unit</source>
        <translation>Einheit</translation>
    </message>
    <message>
        <source>state</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Decoder states s_i after each step</source>
        <translation>Decoder-Zustände s_i nach jedem Schritt</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittel</translation>
    </message>
    <message>
        <source>h_1</source>
        <translation>h_1</translation>
    </message>
    <message>
        <source>h_n</source>
        <translation>h_n</translation>
    </message>
    <message>
        <source>the mean of the states</source>
        <translation>den Mittelwert der Zustände</translation>
    </message>
    <message>
        <source>the first state</source>
        <translation>den ersten Zustand</translation>
    </message>
    <message>
        <source>the last state</source>
        <translation>den letzten Zustand</translation>
    </message>
    <message>
        <source>Tagging</source>
        <translation>Tagging</translation>
    </message>
    <message>
        <source>Classification</source>
        <translation>Klassifikation</translation>
    </message>
    <message>
        <source>Sequence to sequence</source>
        <translation>Sequenz zu Sequenz</translation>
    </message>
    <message>
        <source>one label a word: every state through the classifier</source>
        <translation>ein Label pro Wort: jeder Zustand durch den Klassifikator</translation>
    </message>
    <message>
        <source>one label a sentence: the classifier reads %1</source>
        <translation>ein Label pro Satz: der Klassifikator liest %1</translation>
    </message>
    <message>
        <source>the decoder decides the length: each step reads the states through its attention</source>
        <translation>der Decoder bestimmt die Länge: jeder Schritt liest die Zustände über seine Attention</translation>
    </message>
</context>
<context>
    <name>attn::ui::AboutDialog</name>
    <message>
        <source>About Attention Explorer</source>
        <translation>Über Attention Explorer</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Lizenz</translation>
    </message>
    <message>
        <source>GNU General Public License, version 3 or later (GPL-3.0-or-later)</source>
        <translation>GNU General Public License, Version 3 oder neuer (GPL-3.0-or-later)</translation>
    </message>
    <message>
        <source>Computing with</source>
        <translation>Rechnet mit</translation>
    </message>
    <message>
        <source>Qt</source>
        <translation>Qt</translation>
    </message>
    <message>
        <source>%1 (built with %2)</source>
        <translation>%1 (gebaut mit %2)</translation>
    </message>
    <message>
        <source>Eigen</source>
        <translation>Eigen</translation>
    </message>
    <message>
        <source>QCustomPlot</source>
        <translation>QCustomPlot</translation>
    </message>
    <message>
        <source>Vulkan headers</source>
        <translation>Vulkan-Header</translation>
    </message>
    <message>
        <source>Vulkan device</source>
        <translation>Vulkan-Gerät</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Attention Explorer %1&lt;/h3&gt;&lt;p&gt;See how attention in neural networks is computed: a sentence becomes queries, keys and values, scores, masks and weights, every matrix a heatmap.&lt;/p&gt;&lt;p&gt;Attention Explorer is free software: you can redistribute it and modify it under the terms of the GNU General Public License, version 3 or any later version. It comes with no warranty.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Attention Explorer %1&lt;/h3&gt;&lt;p&gt;Sehen Sie, wie Attention in neuronalen Netzen berechnet wird: Ein Satz wird zu Queries, Keys und Values, Scores, Masken und Gewichten, jede Matrix eine Heatmap.&lt;/p&gt;&lt;p&gt;Attention Explorer ist freie Software: Sie können sie unter den Bedingungen der GNU General Public License, Version 3 oder jeder späteren Version, weitergeben und verändern. Sie wird ohne jede Gewährleistung geliefert.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>&amp;Über</translation>
    </message>
    <message>
        <source>&amp;Licence</source>
        <translation>&amp;Lizenz</translation>
    </message>
    <message>
        <source>&amp;Copy Details</source>
        <translation>Angaben &amp;kopieren</translation>
    </message>
    <message>
        <source>GNU General Public License, version 3 or later: https://www.gnu.org/licenses/gpl-3.0.html</source>
        <translation>GNU General Public License, Version 3 oder neuer: https://www.gnu.org/licenses/gpl-3.0.html</translation>
    </message>
    <message>
        <source>Why this backend</source>
        <translation>Warum dieses Backend</translation>
    </message>
</context>
<context>
    <name>attn::ui::AttentionPanel</name>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>&amp;Score:</source>
        <translation>&amp;Score:</translation>
    </message>
    <message>
        <source>Softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>Hard (argmax)</source>
        <translation>Hart (argmax)</translation>
    </message>
    <message>
        <source>ReLU</source>
        <translation>ReLU</translation>
    </message>
    <message>
        <source>Sparsemax</source>
        <translation>Sparsemax</translation>
    </message>
    <message>
        <source>None (scores as weights)</source>
        <translation>Keine (Scores als Gewichte)</translation>
    </message>
    <message>
        <source>&amp;Normalize:</source>
        <translation>&amp;Normieren:</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatur:</translation>
    </message>
    <message>
        <source>Scale by 1/√d_k</source>
        <translation>Mit 1/√d_k skalieren</translation>
    </message>
    <message>
        <source>−∞ (cell excluded)</source>
        <translation>−∞ (Zelle ausgeschlossen)</translation>
    </message>
    <message>
        <source>−9e15 (PyTorch masked_fill)</source>
        <translation>−9e15 (masked_fill in PyTorch)</translation>
    </message>
    <message>
        <source>What a masked score becomes. With −9e15 a row whose keys are all masked is spread uniformly, as PyTorch does; with −∞ its weights are all 0.</source>
        <translation>Was aus einem maskierten Score wird. Mit −9e15 wird eine Zeile, deren Keys alle maskiert sind, gleichmäßig verteilt, wie in PyTorch; mit −∞ sind ihre Gewichte alle 0.</translation>
    </message>
    <message>
        <source>Masked &amp;value:</source>
        <translation>Maskierter &amp;Wert:</translation>
    </message>
    <message>
        <source>Masks</source>
        <translation>Masken</translation>
    </message>
    <message>
        <source>&amp;Causal (no later keys)</source>
        <translation>&amp;Kausal (keine späteren Keys)</translation>
    </message>
    <message>
        <source>A query sees no key after it: key j &gt; query i is masked, as in a language model</source>
        <translation>Eine Query sieht keinen Key nach ihr: Key j &gt; Query i ist maskiert, wie in einem Sprachmodell</translation>
    </message>
    <message>
        <source>Mask &amp;padding keys</source>
        <translation>&amp;Padding-Keys maskieren</translation>
    </message>
    <message>
        <source>Local &amp;window</source>
        <translation>Lokales &amp;Fenster</translation>
    </message>
    <message>
        <source>One-sided (N keys before)</source>
        <translation>Einseitig (N Keys davor)</translation>
    </message>
    <message>
        <source>Only the N keys before a query and the query itself: i − N ≤ j ≤ i</source>
        <translation>Nur die N Keys vor einer Query und die Query selbst: i − N ≤ j ≤ i</translation>
    </message>
    <message>
        <source>Paint on heatmap</source>
        <translation>Auf der Heatmap malen</translation>
    </message>
    <message>
        <source>Click or drag on the heatmap's cells to mask or unmask them (Undo takes a whole stroke back). Turn off to pan the heatmap instead.</source>
        <translation>Klicken oder ziehen Sie auf den Zellen der Heatmap, um sie zu maskieren oder freizugeben (Rückgängig nimmt einen ganzen Strich zurück). Ausschalten, um die Heatmap stattdessen zu verschieben.</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>Heads</translation>
    </message>
    <message>
        <source>Heads h</source>
        <translation>Anzahl Heads h</translation>
    </message>
    <message>
        <source>Value width per head; d_model / h unless set apart</source>
        <translation>Breite des Value je Head; d_model / h, sofern nicht eigens gesetzt</translation>
    </message>
    <message>
        <source>&amp;Heads h</source>
        <translation>Anzahl &amp;Heads h</translation>
    </message>
    <message>
        <source>&amp;d_model</source>
        <translation>&amp;d_model</translation>
    </message>
    <message>
        <source>d_&amp;k</source>
        <translation>d_&amp;k</translation>
    </message>
    <message>
        <source>d_&amp;v</source>
        <translation>d_&amp;v</translation>
    </message>
    <message>
        <source>S&amp;eed</source>
        <translation>Start&amp;wert</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Custom cells: %1</source>
        <translation>Eigene Zellen: %1</translation>
    </message>
    <message>
        <source>Changing h, d_model, d_k, d_v or the seed draws every weight again from seed %1 (Undo brings the old weights back).</source>
        <translation>Eine Änderung von h, d_model, d_k, d_v oder des Startwerts zieht jedes Gewicht neu aus Startwert %1 (Rückgängig bringt die alten Gewichte zurück).</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>Switch head %1 off: its output becomes zeros in the concatenation before W^O</source>
        <translation>Head %1 abschalten: Seine Ausgabe wird in der Verkettung vor W^O zu Nullen</translation>
    </message>
    <message>
        <source>Seed: %1 is more than %2, the largest seed a scene can keep; it stays %3</source>
        <translation>Startwert: %1 ist größer als %2, der größte Startwert, den eine Szene speichern kann; er bleibt %3</translation>
    </message>
    <message>
        <source>Keys whose token is the padding token get no weight</source>
        <translation>Keys, deren Token das Padding-Token ist, erhalten kein Gewicht</translation>
    </message>
    <message>
        <source>Window width</source>
        <translation>Fensterbreite</translation>
    </message>
    <message>
        <source>N: how many tokens on each side a query may attend to</source>
        <translation>N: wie viele Tokens auf jeder Seite eine Query beachten darf</translation>
    </message>
    <message>
        <source>Unmask every cell masked by hand</source>
        <translation>Jede von Hand maskierte Zelle wieder freigeben</translation>
    </message>
    <message>
        <source>Number of heads h; each has its own W^q, W^k, W^v</source>
        <translation>Anzahl der Heads h; jeder hat eigene W^q, W^k, W^v</translation>
    </message>
    <message>
        <source>Width of each token's vector; a new width draws new weights from the seed</source>
        <translation>Breite des Vektors jedes Tokens; eine neue Breite zieht neue Gewichte aus dem Seed</translation>
    </message>
    <message>
        <source>The random weights' seed: the same seed and shape give the same weights</source>
        <translation>Der Seed der Zufallsgewichte: gleicher Seed und gleiche Form ergeben gleiche Gewichte</translation>
    </message>
    <message>
        <source>With M = I, the default, the score qᵀMk is q·k: the figures equal dot-product attention until M is edited (Weights, “M (bilinear)”).</source>
        <translation>Mit M = I, der Voreinstellung, ist der Score qᵀMk gleich q·k: Die Abbildungen gleichen der Skalarprodukt-Attention, bis M bearbeitet wird (Gewichte, „M (bilinear)“).</translation>
    </message>
    <message>
        <source>No normalization: the scaled, masked scores are the weights (masked cells 0), as in (X Xᵀ) V. Rows need not sum to 1.</source>
        <translation>Keine Normierung: Die skalierten, maskierten Scores sind die Gewichte (maskierte Zellen 0), wie in (X Xᵀ) V. Zeilensummen müssen nicht 1 sein.</translation>
    </message>
    <message>
        <source>Vaswani et al. 2017: the variance of q·k grows with d_k, so large dot products saturate the softmax; dividing by √d_k keeps it in its sensitive range.</source>
        <translation>Vaswani u. a. 2017: Die Varianz von q·k wächst mit d_k, sodass große Skalarprodukte die Softmax sättigen; die Division durch √d_k hält sie in ihrem empfindlichen Bereich.</translation>
    </message>
    <message>
        <source>Only keys with |i − j| ≤ N are seen: each word attends to its neighbours, not to the whole sentence.</source>
        <translation>Nur Keys mit |i − j| ≤ N sind sichtbar: Jedes Wort achtet auf seine Nachbarn, nicht auf den ganzen Satz.</translation>
    </message>
    <message>
        <source>Query and key width per head; d_model / h unless set apart, so that h heads cost about as much as one head of full width (Vaswani et al. 2017)</source>
        <translation>Breite von Query und Key je Head; d_model / h, sofern nicht eigens gesetzt, sodass h Heads etwa so viel kosten wie ein Head voller Breite (Vaswani u. a. 2017)</translation>
    </message>
</context>
<context>
    <name>attn::ui::AttributionView</name>
    <message>
        <source>Logit of to&amp;ken:</source>
        <translation>Logit des To&amp;kens:</translation>
    </message>
    <message>
        <source>the model's prediction</source>
        <translation>die Vorhersage des Modells</translation>
    </message>
    <message>
        <source>The token whose logit is split into each part's share: empty for the model's prediction, or one token of the vocabulary</source>
        <translation>Das Token, dessen Logit in die Anteile der Teile zerlegt wird: leer für die Vorhersage des Modells, sonst ein Token des Vokabulars</translation>
    </message>
    <message>
        <source>No model open</source>
        <translation>Kein Modell geöffnet</translation>
    </message>
    <message>
        <source>Logit %1 at position %2 = heads %3 + attention biases %4 + feed-forward %5 + embeddings %6 + final bias %7 (norm scale frozen at %8). Click a head to open it.</source>
        <translation>Logit %1 an Position %2 = Köpfe %3 + Attention-Biases %4 + Feed-Forward %5 + Embeddings %6 + letzter Bias %7 (Skala der Norm bei %8 festgehalten). Klicken Sie auf einen Kopf, um ihn zu öffnen.</translation>
    </message>
</context>
<context>
    <name>attn::ui::ComputeSchedule</name>
    <message>
        <source>Not current: computing the input as it is now…</source>
        <translation>Nicht aktuell: Die jetzige Eingabe wird berechnet…</translation>
    </message>
</context>
<context>
    <name>attn::ui::ConceptPage</name>
    <message>
        <source>Nothing to show yet.</source>
        <translation>Noch nichts zu zeigen.</translation>
    </message>
</context>
<context>
    <name>attn::ui::CrashRecovery</name>
    <message>
        <source>Autosave failed: %1</source>
        <translation>Automatisches Speichern fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::DownloadModelDialog</name>
    <message>
        <source>Download Model</source>
        <translation>Modell herunterladen</translation>
    </message>
    <message>
        <source>Downloads a model's configuration, tokenizer and safetensors weights from the Hugging Face Hub (%1) into the cache Python's huggingface_hub uses too (%2).</source>
        <translation>Lädt die Konfiguration, den Tokenizer und die safetensors-Gewichte eines Modells vom Hugging Face Hub (%1) in den Cache, den auch Pythons huggingface_hub verwendet (%2).</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Download</translation>
    </message>
    <message>
        <source>In the cache</source>
        <translation>Im Cache</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>Model &amp;id:</source>
        <translation>Modell-&amp;ID:</translation>
    </message>
    <message>
        <source>ORG/NAME, or ORG/NAME@REVISION</source>
        <translation>ORG/NAME oder ORG/NAME@REVISION</translation>
    </message>
    <message>
        <source>&amp;Download</source>
        <translation>&amp;Herunterladen</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>Asking the Hub for %1…</source>
        <translation>Frage den Hub nach %1…</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>, %1/s</source>
        <translation>, %1/s</translation>
    </message>
    <message>
        <source>, %1 left</source>
        <translation>, noch %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::EmbeddingSpacePage</name>
    <message>
        <source>Map</source>
        <translation>Karte</translation>
    </message>
    <message>
        <source>PCA</source>
        <translation>PCA</translation>
    </message>
    <message>
        <source>t-SNE</source>
        <translation>t-SNE</translation>
    </message>
    <message>
        <source>Analogy</source>
        <translation>Analogie</translation>
    </message>
    <message>
        <source>king - man + woman, or one word</source>
        <translation>king - man + woman, oder ein Wort</translation>
    </message>
    <message>
        <source>&amp;Map:</source>
        <translation>&amp;Karte:</translation>
    </message>
    <message>
        <source>&amp;Words:</source>
        <translation>&amp;Wörter:</translation>
    </message>
    <message>
        <source>Nearest by cosine: %1</source>
        <translation>Nächste nach Kosinus: %1</translation>
    </message>
    <message>
        <source>t-SNE of %1 words would take minutes here; PCA draws them at once (t-SNE up to %2).</source>
        <translation>t-SNE von %1 Wörtern würde hier Minuten dauern; PCA zeichnet sie sofort (t-SNE bis %2).</translation>
    </message>
    <message>
        <source>PCA keeps the directions of largest spread; t-SNE keeps each word's neighbours</source>
        <translation>PCA behält die Richtungen der größten Streuung; t-SNE behält die Nachbarn jedes Worts</translation>
    </message>
</context>
<context>
    <name>attn::ui::EncDecView</name>
    <message>
        <source>&amp;Translate</source>
        <translation>Ü&amp;bersetzen</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ Zurück</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>Schritt ▶</translation>
    </message>
    <message>
        <source>Max &amp;words:</source>
        <translation>Höchstens &amp;Wörter:</translation>
    </message>
    <message>
        <source>Encoder self-attention (source x source)</source>
        <translation>Encoder-Self-Attention (Quelle x Quelle)</translation>
    </message>
    <message>
        <source>Decoder self-attention (target x target, causal)</source>
        <translation>Decoder-Self-Attention (Ziel x Ziel, kausal)</translation>
    </message>
    <message>
        <source>Cross-attention (target x source)</source>
        <translation>Cross-Attention (Ziel x Quelle)</translation>
    </message>
    <message>
        <source>E&amp;xport Figure…</source>
        <translation>Abbildung e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Save this matrix as PNG, SVG or PDF</source>
        <translation>Diese Matrix als PNG, SVG oder PDF speichern</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>Übersetze…</translation>
    </message>
    <message>
        <source>Stopped at word %1.</source>
        <translation>Bei Wort %1 angehalten.</translation>
    </message>
    <message>
        <source>Done: the model wrote its end token.</source>
        <translation>Fertig: Das Modell hat sein Endtoken geschrieben.</translation>
    </message>
    <message>
        <source>Done: the length limit (%1 words).</source>
        <translation>Fertig: die Längengrenze (%1 Wörter).</translation>
    </message>
    <message>
        <source>Translation failed: %1</source>
        <translation>Übersetzung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Layer %1, mean of the heads</source>
        <translation>Schicht %1, Mittel der Heads</translation>
    </message>
    <message>
        <source>Layer %1, head %2</source>
        <translation>Schicht %1, Head %2</translation>
    </message>
    <message>
        <source>source (query)</source>
        <translation>Quelle (Query)</translation>
    </message>
    <message>
        <source>target word written</source>
        <translation>geschriebenes Zielwort</translation>
    </message>
    <message>
        <source>source (key)</source>
        <translation>Quelle (Key)</translation>
    </message>
    <message>
        <source>target so far (key)</source>
        <translation>bisheriges Ziel (Key)</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>Abbildung exportieren</translation>
    </message>
    <message>
        <source>Figures (*.png *.svg *.pdf)</source>
        <translation>Abbildungen (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Could not write %1: name it .png, .svg or .pdf</source>
        <translation>%1 konnte nicht geschrieben werden: Endung .png, .svg oder .pdf wählen</translation>
    </message>
    <message>
        <source>Open a translation model (an encoder-decoder such as Marian's opus-mt or BART) to translate the text box's sentence word by word.</source>
        <translation>Ein Übersetzungsmodell öffnen (einen Encoder-Decoder wie Marians opus-mt oder BART), um den Satz im Textfeld Wort für Wort zu übersetzen.</translation>
    </message>
    <message>
        <source>No encoder-decoder model open</source>
        <translation>Kein Encoder-Decoder-Modell geöffnet</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; &lt;small&gt;(p = %2)&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; &lt;small&gt;(p = %2)&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Word %1 of %2: %3</source>
        <translation>Wort %1 von %2: %3</translation>
    </message>
    <message>
        <source>Translate to see the target grow one word at a time.</source>
        <translation>Übersetzen, um das Ziel Wort für Wort wachsen zu sehen.</translation>
    </message>
    <message>
        <source>Translating… word %1.</source>
        <translation>Übersetze… Wort %1.</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>Mean of heads</source>
        <translation>Mittel der Heads</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>Translate to see the decoder's heads</source>
        <translation>Übersetzen, um die Heads des Decoders zu sehen</translation>
    </message>
    <message>
        <source>Stop translating; the words so far stay</source>
        <translation>Übersetzen anhalten; die Wörter bis hierher bleiben</translation>
    </message>
    <message>
        <source>Show the translation one word shorter</source>
        <translation>Die Übersetzung um ein Wort kürzer zeigen</translation>
    </message>
    <message>
        <source>Show the next word and the cross-attention row that chose it</source>
        <translation>Das nächste Wort zeigen und die Zeile der Cross-Attention, die es gewählt hat</translation>
    </message>
    <message>
        <source>The translation stops here if the end token has not come</source>
        <translation>Die Übersetzung endet hier, wenn das Endtoken nicht vorher kommt</translation>
    </message>
    <message>
        <source>Which attention the grid shows: the encoder's over the source, the decoder's over the words written, or the decoder's over the source (the alignment)</source>
        <translation>Welche Attention das Raster zeigt: die des Encoders über der Quelle, die des Decoders über den geschriebenen Wörtern oder die des Decoders über der Quelle (die Zuordnung)</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>The layer whose head, or mean of heads, is shown below</source>
        <translation>Die Schicht, deren Kopf oder Mittel der Köpfe unten gezeigt wird</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>One head, or the mean of the layer's heads</source>
        <translation>Ein Kopf oder das Mittel der Köpfe der Schicht</translation>
    </message>
    <message>
        <source>Translate the text box's sentence: with 1 beam each word the most likely one, with more the likeliest sentence the beams find</source>
        <translation>Den Satz im Textfeld übersetzen: mit 1 Strahl jedes Wort das wahrscheinlichste, mit mehr der wahrscheinlichste Satz, den die Strahlen finden</translation>
    </message>
    <message>
        <source>1 is greedy decoding: the likeliest word at each step. Wider beams keep that many partial translations and choose by the mean log-probability per word.</source>
        <translation>1 ist gierige Dekodierung: in jedem Schritt das wahrscheinlichste Wort. Breitere Strahlen behalten so viele Teilübersetzungen und wählen nach der mittleren Log-Wahrscheinlichkeit je Wort.</translation>
    </message>
    <message>
        <source>&amp;Beams:</source>
        <translation>&amp;Strahlen:</translation>
    </message>
    <message>
        <source>Head &amp;on</source>
        <translation>Kopf &amp;an</translation>
    </message>
    <message>
        <source>Off: the head's output leaves the layer; its weights are still shown</source>
        <translation>Aus: die Ausgabe des Kopfs verlässt die Schicht; seine Gewichte werden weiter gezeigt</translation>
    </message>
    <message>
        <source>softmax(scores / T) for every head of this layer: above 1 flatter, below 1 sharper</source>
        <translation>softmax(Scores / T) für jeden Kopf dieser Schicht: über 1 flacher, unter 1 schärfer</translation>
    </message>
    <message>
        <source>Tem&amp;perature:</source>
        <translation>Tem&amp;peratur:</translation>
    </message>
    <message>
        <source>The head's W^v times this factor: how loudly the head writes what it reads</source>
        <translation>W^v des Kopfs mal diesen Faktor: wie laut der Kopf schreibt, was er liest</translation>
    </message>
    <message>
        <source>&amp;Scale W^v:</source>
        <translation>W^v ska&amp;lieren:</translation>
    </message>
    <message>
        <source>&amp;Reset Edits</source>
        <translation>Änderungen &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Every head of the three kinds back to the checkpoint's</source>
        <translation>Jeder Kopf der drei Arten zurück auf den des Checkpoints</translation>
    </message>
    <message>
        <source>Of %1 beams, the chosen translation has log-probability %2, %3 per word.</source>
        <translation>Von %1 Strahlen hat die gewählte Übersetzung die Log-Wahrscheinlichkeit %2, %3 je Wort.</translation>
    </message>
    <message>
        <source>Searching with %1 beams…</source>
        <translation>Suche mit %1 Strahlen…</translation>
    </message>
    <message>
        <source>Done: the end token, forced at the length limit (%1 words).</source>
        <translation>Fertig: das Endtoken, erzwungen an der Längengrenze (%1 Wörter).</translation>
    </message>
    <message>
        <source>%1 banned</source>
        <translation>%1 gesperrt</translation>
    </message>
    <message>
        <source>the end token forced at the last word allowed</source>
        <translation>das Endtoken beim letzten erlaubten Wort erzwungen</translation>
    </message>
    <message>
        <source>%1 banned sequences of several tokens not applied</source>
        <translation>%1 gesperrte Folgen aus mehreren Tokens nicht angewandt</translation>
    </message>
    <message>
        <source>As the checkpoint's generation settings say: %1.</source>
        <translation>Wie es die Generierungseinstellungen des Checkpoints vorgeben: %1.</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>Nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Not translated: %1</source>
        <translation>Nicht übersetzt: %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::ExplorerMenus</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>&amp;Modell öffnen…</translation>
    </message>
    <message>
        <source>Every layer and head of a Hugging Face model, in a window of its own</source>
        <translation>Jede Schicht und jeder Head eines Hugging-Face-Modells, in einem eigenen Fenster</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>Beisp&amp;iele</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>&amp;Export Figure…</source>
        <translation>Abbildung &amp;exportieren…</translation>
    </message>
    <message>
        <source>Export the figure as PNG, SVG or PDF, or a matrix as CSV, NPY, JSON or LaTeX (Ctrl+E)</source>
        <translation>Die Abbildung als PNG, SVG oder PDF exportieren oder eine Matrix als CSV, NPY, JSON oder LaTeX (Strg+E)</translation>
    </message>
    <message>
        <source>Export &amp;Presentation as PDF…</source>
        <translation>&amp;Präsentation als PDF exportieren…</translation>
    </message>
    <message>
        <source>Export Presentation</source>
        <translation>Präsentation exportieren</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Every step of the presentation as one page of a PDF, for handouts and slides</source>
        <translation>Jeder Schritt der Präsentation als eine Seite eines PDF, für Handouts und Folien</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;Copy Figure</source>
        <translation>Abbildung &amp;kopieren</translation>
    </message>
    <message>
        <source>Clear Custom &amp;Mask</source>
        <translation>Eigene &amp;Maske leeren</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Fit Matrix</source>
        <translation>Matrix &amp;einpassen</translation>
    </message>
    <message>
        <source>&amp;Numbers in Cells</source>
        <translation>&amp;Zahlen in Zellen</translation>
    </message>
    <message>
        <source>Colours Scaled to the &amp;Data</source>
        <translation>Farben nach den &amp;Daten skalieren</translation>
    </message>
    <message>
        <source>&amp;Present</source>
        <translation>&amp;Präsentieren</translation>
    </message>
    <message>
        <source>Step through the computation full screen: arrow keys, Space or a clicker (F11)</source>
        <translation>Die Berechnung Schritt für Schritt im Vollbild zeigen: Pfeiltasten, Leertaste oder ein Presenter (F11)</translation>
    </message>
    <message>
        <source>&amp;Full Screen Window</source>
        <translation>&amp;Vollbildfenster</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Attention Explorer</source>
        <translation>&amp;Über Attention Explorer</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Hauptleiste</translation>
    </message>
    <message>
        <source>Sequence to Se&amp;quence…</source>
        <translation>Se&amp;quenz zu Sequenz…</translation>
    </message>
    <message>
        <source>An encoder-decoder translating word by word, with its alignment, in a window of its own</source>
        <translation>Ein Encoder-Decoder, der Wort für Wort übersetzt, mit seiner Ausrichtung, in einem eigenen Fenster</translation>
    </message>
</context>
<context>
    <name>attn::ui::ExplorerWindow</name>
    <message>
        <source>The attention weights of one head (or their mean): queries as rows, keys as columns</source>
        <translation>Die Attention-Gewichte eines Heads (oder ihr Mittel): Queries als Zeilen, Keys als Spalten</translation>
    </message>
    <message>
        <source>X, Q, K, V, scores, masked scores, weights and output of one head</source>
        <translation>X, Q, K, V, Scores, maskierte Scores, Gewichte und Ausgabe eines Heads</translation>
    </message>
    <message>
        <source>Each query joined to every key by a line as strong as its weight</source>
        <translation>Jede Query mit jedem Key durch eine Linie verbunden, so stark wie ihr Gewicht</translation>
    </message>
    <message>
        <source>Scene</source>
        <translation>Szene</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>Alle Heads</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>Now computing with %1 · %2.</source>
        <translation>Es wird jetzt mit %1 · %2 gerechnet.</translation>
    </message>
    <message>
        <source>%1. Your scene is unchanged.</source>
        <translation>%1. Ihre Szene ist unverändert.</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Rechnet…</translation>
    </message>
    <message>
        <source>Not computed: the figures show an earlier input</source>
        <translation>Nicht berechnet: Die Abbildungen zeigen eine frühere Eingabe</translation>
    </message>
    <message>
        <source>Not computed</source>
        <translation>Nicht berechnet</translation>
    </message>
    <message>
        <source>Nothing to show yet: %1</source>
        <translation>Noch nichts zu zeigen: %1</translation>
    </message>
    <message>
        <source>%1 × %2 tokens · %3</source>
        <translation>%1 × %2 Tokens · %3</translation>
    </message>
    <message>
        <source>1 head</source>
        <translation>1 Head</translation>
    </message>
    <message>
        <source>%1 heads</source>
        <translation>%1 Heads</translation>
    </message>
    <message>
        <source> · shown pooled, %1 × %2 per cell</source>
        <translation> · zusammengefasst gezeigt, %1 × %2 je Zelle</translation>
    </message>
    <message>
        <source>Computed in %1</source>
        <translation>Berechnet in %1</translation>
    </message>
    <message>
        <source>Every head is switched off: the output is all zeros and the mean of heads has nothing to average. Switch a head on under Heads.</source>
        <translation>Jeder Head ist abgeschaltet: Die Ausgabe besteht nur aus Nullen, und das Mittel der Heads hat nichts zu mitteln. Schalten Sie unter Heads einen Head ein.</translation>
    </message>
    <message>
        <source>Attention Explorer</source>
        <translation>Attention Explorer</translation>
    </message>
    <message>
        <source>%1 read into %2</source>
        <translation>%1 in %2 eingelesen</translation>
    </message>
    <message>
        <source>There is no figure to export yet: the scene has not been computed.</source>
        <translation>Es gibt noch keine Abbildung zum Exportieren: Die Szene ist noch nicht berechnet.</translation>
    </message>
    <message>
        <source>There is nothing to present yet: the scene has not been computed.</source>
        <translation>Es gibt noch nichts zu präsentieren: Die Szene ist noch nicht berechnet.</translation>
    </message>
    <message>
        <source>These weights minus the &amp;same with:</source>
        <translation>Diese Gewichte minus dieselben &amp;mit:</translation>
    </message>
    <message>
        <source>T&amp;rain</source>
        <translation>T&amp;raining</translation>
    </message>
    <message>
        <source>&amp;Gradient</source>
        <translation>&amp;Gradient</translation>
    </message>
    <message>
        <source>&amp;Kernel</source>
        <translation>&amp;Kern</translation>
    </message>
    <message>
        <source>P&amp;ositions</source>
        <translation>P&amp;ositionen</translation>
    </message>
    <message>
        <source>&amp;Embeddings</source>
        <translation>&amp;Einbettungen</translation>
    </message>
    <message>
        <source>Fit W_q, W_k, W_v and W_O to a task with Adam and watch the weights sharpen as the loss falls</source>
        <translation>W_q, W_k, W_v und W_O mit Adam an eine Aufgabe anpassen und zusehen, wie die Gewichte schärfer werden, während der Verlust fällt</translation>
    </message>
    <message>
        <source>Why 1/√d_k: the softmax Jacobian of one query and the spread of the scores, without and with the scaling</source>
        <translation>Warum 1/√d_k: die Softmax-Jacobi-Matrix einer Query und die Streuung der Scores, ohne und mit der Skalierung</translation>
    </message>
    <message>
        <source>Attention as a kernel smoother: keys on a line, the weighted average of their values as the query moves</source>
        <translation>Attention als Kern-Glätter: Keys auf einer Geraden, der gewichtete Mittelwert ihrer Values, während die Query wandert</translation>
    </message>
    <message>
        <source>The positional encodings P, how alike positions are, and X = E + P</source>
        <translation>Die Positionskodierungen P, wie ähnlich Positionen sind, und X = E + P</translation>
    </message>
    <message>
        <source>The word vectors on a map, their nearest words and analogies</source>
        <translation>Die Wortvektoren auf einer Karte, ihre nächsten Wörter und Analogien</translation>
    </message>
    <message>
        <source>These weights minus the weights of the same input with one setting changed, or of the scene as it was opened</source>
        <translation>Diese Gewichte minus die Gewichte derselben Eingabe mit einer geänderten Einstellung oder der Szene wie geöffnet</translation>
    </message>
    <message>
        <source>The one change the Difference tab makes: it shows these weights minus the weights with that change</source>
        <translation>Die eine Änderung des Differenz-Tabs: er zeigt diese Gewichte minus die Gewichte mit dieser Änderung</translation>
    </message>
    <message>
        <source>Pro&amp;jections</source>
        <translation>Pro&amp;jektionen</translation>
    </message>
    <message>
        <source>&amp;Hard attention</source>
        <translation>&amp;Harte Attention</translation>
    </message>
    <message>
        <source>&amp;Context</source>
        <translation>&amp;Kontext</translation>
    </message>
    <message>
        <source>W^Q as the heads' projections side by side, a head's QK and OV circuits, and the bias as a row of the weights</source>
        <translation>W^Q als die Projektionen der Heads nebeneinander, QK- und OV-Kreise eines Heads und der Bias als Zeile der Gewichte</translation>
    </message>
    <message>
        <source>Softmax beside argmax: the weight hard attention drops for each query, and why it cannot be trained directly</source>
        <translation>Softmax neben Argmax: das Gewicht, das harte Attention je Query verwirft, und warum sie sich nicht direkt trainieren lässt</translation>
    </message>
    <message>
        <source>One word in two sentences: the same input vector, two outputs</source>
        <translation>Ein Wort in zwei Sätzen: derselbe Eingabevektor, zwei Ausgaben</translation>
    </message>
    <message>
        <source>S&amp;tacked blocks</source>
        <translation>Ges&amp;tapelte Blöcke</translation>
    </message>
    <message>
        <source>Fi&amp;xed weights</source>
        <translation>Fi&amp;xe Gewichte</translation>
    </message>
    <message>
        <source>A fully connected layer, a convolution and attention: which mixing weights move when a word changes</source>
        <translation>Eine vollständig verbundene Schicht, eine Faltung und Attention: welche Mischgewichte sich bewegen, wenn sich ein Wort ändert</translation>
    </message>
    <message>
        <source>Stacked blocks: attention, then a feed-forward layer, each with its residual and layer norm; one block's output is the next one's input</source>
        <translation>Gestapelte Blöcke: Attention, dann eine Feed-Forward-Schicht, jede mit ihrer Residualverbindung und Layer-Norm; die Ausgabe eines Blocks ist die Eingabe des nächsten</translation>
    </message>
</context>
<context>
    <name>attn::ui::ExportDialog</name>
    <message>
        <source>CSV</source>
        <translation>CSV-Datei</translation>
    </message>
    <message>
        <source>NumPy array</source>
        <translation>NumPy-Array</translation>
    </message>
    <message>
        <source>JSON with token labels</source>
        <translation>JSON mit Token-Beschriftungen</translation>
    </message>
    <message>
        <source>LaTeX tabular</source>
        <translation>LaTeX-Tabelle (tabular)</translation>
    </message>
    <message>
        <source>LaTeX pgfplots matrix plot</source>
        <translation>LaTeX-pgfplots-Matrixdiagramm</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>Abbildung exportieren</translation>
    </message>
    <message>
        <source>Leave empty for the view's own title, shown greyed here</source>
        <translation>Leer lassen für den eigenen Titel der Ansicht, hier grau gezeigt</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>Abbildung</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>&amp;Zeigen:</translation>
    </message>
    <message>
        <source>&amp;Head:</source>
        <translation>&amp;Head:</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>&amp;Titel:</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>PNG-Bild</translation>
    </message>
    <message>
        <source>SVG, vector</source>
        <translation>SVG, Vektor</translation>
    </message>
    <message>
        <source>PDF, vector</source>
        <translation>PDF, Vektor</translation>
    </message>
    <message>
        <source>Pixels; the DPI is written into the file</source>
        <translation>Pixel; die DPI werden in die Datei geschrieben</translation>
    </message>
    <message>
        <source>Scalable, text kept as text: for the web and for editing</source>
        <translation>Skalierbar, Text bleibt Text: für das Web und zum Bearbeiten</translation>
    </message>
    <message>
        <source>Scalable, text kept as text: for LaTeX and print</source>
        <translation>Skalierbar, Text bleibt Text: für LaTeX und den Druck</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>Höhe</translation>
    </message>
    <message>
        <source>cm</source>
        <translation>cm</translation>
    </message>
    <message>
        <source>in</source>
        <translation>Zoll</translation>
    </message>
    <message>
        <source>px</source>
        <translation>px</translation>
    </message>
    <message>
        <source> DPI</source>
        <translation> DPI</translation>
    </message>
    <message>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>&amp;Format:</translation>
    </message>
    <message>
        <source>Si&amp;ze:</source>
        <translation>&amp;Größe:</translation>
    </message>
    <message>
        <source>&amp;Resolution:</source>
        <translation>&amp;Auflösung:</translation>
    </message>
    <message>
        <source>grey (for print)</source>
        <translation>grau (für den Druck)</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Colour &amp;bar</source>
        <translation>Far&amp;bskala</translation>
    </message>
    <message>
        <source>Colours to the &amp;data</source>
        <translation>Farben nach den Da&amp;ten</translation>
    </message>
    <message>
        <source>Off: weights on one fixed scale, 0 to 1, that other figures share. On: from 0 to the largest weight. The colour bar says which.</source>
        <translation>Aus: Gewichte auf einer festen Skala von 0 bis 1, die andere Abbildungen teilen. An: von 0 bis zum größten Gewicht. Die Farbskala sagt, welche gilt.</translation>
    </message>
    <message>
        <source>&amp;Numbers in cells</source>
        <translation>Z&amp;ahlen in Zellen</translation>
    </message>
    <message>
        <source>Where a cell is large enough to hold its number</source>
        <translation>Wo eine Zelle groß genug für ihre Zahl ist</translation>
    </message>
    <message>
        <source>Digits after the decimal point</source>
        <translation>Stellen nach dem Komma</translation>
    </message>
    <message>
        <source>Style</source>
        <translation>Stil</translation>
    </message>
    <message>
        <source>&amp;Colormap:</source>
        <translation>Farbs&amp;chema:</translation>
    </message>
    <message>
        <source>F&amp;ont size:</source>
        <translation>Sch&amp;riftgröße:</translation>
    </message>
    <message>
        <source>&amp;decimals</source>
        <translation>&amp;Nachkommastellen</translation>
    </message>
    <message>
        <source>Export &amp;Matrix…</source>
        <translation>&amp;Matrix exportieren…</translation>
    </message>
    <message>
        <source>Write one stage of one head as CSV, NumPy, JSON or LaTeX</source>
        <translation>Eine Stufe eines Heads als CSV, NumPy, JSON oder LaTeX schreiben</translation>
    </message>
    <message>
        <source>Co&amp;py</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Copy the figure to the clipboard as PNG and SVG</source>
        <translation>Die Abbildung als PNG und SVG in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>&amp;Speichern…</translation>
    </message>
    <message>
        <source>One head, heatmap</source>
        <translation>Ein Head, Heatmap</translation>
    </message>
    <message>
        <source>All heads, grid</source>
        <translation>Alle Heads, Raster</translation>
    </message>
    <message>
        <source>Pipeline of one head</source>
        <translation>Rechenweg eines Heads</translation>
    </message>
    <message>
        <source>Lines, queries to keys</source>
        <translation>Linien, Queries zu Keys</translation>
    </message>
    <message>
        <source>Difference from comparison</source>
        <translation>Differenz zum Vergleich</translation>
    </message>
    <message>
        <source>Needs a second result to compare with: set one up in the window's difference view</source>
        <translation>Braucht ein zweites Ergebnis zum Vergleich: Richten Sie eines in der Differenzansicht des Fensters ein</translation>
    </message>
    <message>
        <source>%1 (selected)</source>
        <translation>%1 (ausgewählt)</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source> (off)</source>
        <translation> (aus)</translation>
    </message>
    <message>
        <source>Mean of heads</source>
        <translation>Mittel der Heads</translation>
    </message>
    <message>
        <source>A difference is signed: it takes the diverging map</source>
        <translation>Eine Differenz hat ein Vorzeichen: Sie verwendet das divergierende Farbschema</translation>
    </message>
    <message>
        <source>Pixels per inch: with the size, sets the image's pixels</source>
        <translation>Pixel pro Zoll: bestimmt mit der Größe die Pixel des Bildes</translation>
    </message>
    <message>
        <source>Pixels per inch: sets the page size of a figure measured in pixels</source>
        <translation>Pixel pro Zoll: bestimmt die Seitengröße einer in Pixeln gemessenen Abbildung</translation>
    </message>
    <message>
        <source>A vector figure measured in cm or inches is the same at any DPI</source>
        <translation>Eine in cm oder Zoll gemessene Vektorabbildung ist bei jeder DPI-Zahl gleich</translation>
    </message>
    <message>
        <source>%1 × %2 %3</source>
        <translation>%1 × %2 %3</translation>
    </message>
    <message>
        <source>%1 × %2 pixels, %3</source>
        <translation>%1 × %2 Pixel, %3</translation>
    </message>
    <message>
        <source>Page %1 × %2 pt, %3</source>
        <translation>Seite %1 × %2 pt, %3</translation>
    </message>
    <message>
        <source>There is nothing to export yet: the figure appears once a result is computed.</source>
        <translation>Es gibt noch nichts zu exportieren: Die Abbildung erscheint, sobald ein Ergebnis berechnet ist.</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Save Figure</source>
        <translation>Abbildung speichern</translation>
    </message>
    <message>
        <source>The figure was not saved to “%1”.</source>
        <translation>Die Abbildung wurde nicht in „%1“ gespeichert.</translation>
    </message>
    <message>
        <source>Any file already there is unchanged.</source>
        <translation>Eine dort schon vorhandene Datei ist unverändert.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>The figure was not copied.</source>
        <translation>Die Abbildung wurde nicht kopiert.</translation>
    </message>
    <message>
        <source>Copied to the clipboard as PNG and SVG</source>
        <translation>Als PNG und SVG in die Zwischenablage kopiert</translation>
    </message>
    <message>
        <source>Export Matrix</source>
        <translation>Matrix exportieren</translation>
    </message>
    <message>
        <source>Numbers rounded to the decimals chosen.</source>
        <translation>Zahlen auf die gewählten Nachkommastellen gerundet.</translation>
    </message>
    <message>
        <source>Every value is written exactly (shortest round-trip digits).</source>
        <translation>Jeder Wert wird exakt geschrieben (kürzeste verlustfreie Ziffernfolge).</translation>
    </message>
    <message>
        <source>The matrix was not saved to “%1”.</source>
        <translation>Die Matrix wurde nicht in „%1“ gespeichert.</translation>
    </message>
    <message>
        <source>&amp;Stage:</source>
        <translation>&amp;Stufe:</translation>
    </message>
    <message>
        <source>&amp;Decimals:</source>
        <translation>&amp;Nachkommastellen:</translation>
    </message>
</context>
<context>
    <name>attn::ui::FigureExports</name>
    <message>
        <source>The figure was not copied: %1</source>
        <translation>Die Abbildung wurde nicht kopiert: %1</translation>
    </message>
    <message>
        <source>Figure copied as PNG and SVG</source>
        <translation>Abbildung als PNG und SVG kopiert</translation>
    </message>
    <message>
        <source>The presentation was not exported: %1</source>
        <translation>Die Präsentation wurde nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Export: the file name must end in .png, .svg or .pdf</source>
        <translation>Export: Der Dateiname muss auf .png, .svg oder .pdf enden</translation>
    </message>
    <message>
        <source>The figure was not exported: %1</source>
        <translation>Die Abbildung wurde nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>Abbildung exportieren</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</source>
        <translation>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
</context>
<context>
    <name>attn::ui::GalleryView</name>
    <message>
        <source>&lt;b&gt;No model open.&lt;/b&gt; Open one in a click: a model in the Hugging Face cache opens at once, another downloads first.</source>
        <translation>&lt;b&gt;Kein Modell geöffnet.&lt;/b&gt; Eines mit einem Klick öffnen: Ein Modell im Hugging-Face-Cache öffnet sofort, ein anderes wird zuerst heruntergeladen.</translation>
    </message>
    <message>
        <source>open from the cache</source>
        <translation>aus dem Cache öffnen</translation>
    </message>
    <message>
        <source>download</source>
        <translation>herunterladen</translation>
    </message>
    <message>
        <source>download %1</source>
        <translation>%1 herunterladen</translation>
    </message>
    <message>
        <source>Download %1 into the Hugging Face cache and open it</source>
        <translation>%1 in den Hugging-Face-Cache herunterladen und öffnen</translation>
    </message>
</context>
<context>
    <name>attn::ui::GenerateView</name>
    <message>
        <source>Done: as many tokens as asked for.</source>
        <translation>Fertig: so viele Tokens wie verlangt.</translation>
    </message>
    <message>
        <source>Done: the model wrote its end-of-text token.</source>
        <translation>Fertig: Das Modell hat sein Textende-Token geschrieben.</translation>
    </message>
    <message>
        <source>Done: the stop text was written.</source>
        <translation>Fertig: Der Stopptext wurde geschrieben.</translation>
    </message>
    <message>
        <source>Done: every [MASK] is filled.</source>
        <translation>Fertig: Jedes [MASK] ist gefüllt.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Angehalten.</translation>
    </message>
    <message>
        <source>How many tokens to write (masked models: [MASK]s to fill)</source>
        <translation>Wie viele Tokens geschrieben werden (maskierte Modelle: wie viele [MASK]s gefüllt werden)</translation>
    </message>
    <message>
        <source>Divides the logits before the softmax; 0 is greedy: always the most likely token</source>
        <translation>Teilt die Logits vor dem Softmax; 0 ist gierig: immer das wahrscheinlichste Token</translation>
    </message>
    <message>
        <source>Draw only among the K most likely tokens; 0: all of them</source>
        <translation>Nur unter den K wahrscheinlichsten Tokens ziehen; 0: unter allen</translation>
    </message>
    <message>
        <source>Draw only from the smallest set of most likely tokens whose probability reaches P</source>
        <translation>Nur aus der kleinsten Menge der wahrscheinlichsten Tokens ziehen, deren Wahrscheinlichkeit P erreicht</translation>
    </message>
    <message>
        <source>Tokens already in the text: positive logits divided by it, negative ones multiplied; 1: none</source>
        <translation>Tokens, die schon im Text stehen: positive Logits werden durch ihn geteilt, negative mit ihm multipliziert; 1: keine</translation>
    </message>
    <message>
        <source>The same seed draws the same tokens</source>
        <translation>Derselbe Seed zieht dieselben Tokens</translation>
    </message>
    <message>
        <source>&amp;Tokens:</source>
        <translation>&amp;Tokens:</translation>
    </message>
    <message>
        <source>T&amp;emperature:</source>
        <translation>T&amp;emperatur:</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-&amp;k:</translation>
    </message>
    <message>
        <source>Top-&amp;p:</source>
        <translation>Top-&amp;p:</translation>
    </message>
    <message>
        <source>Repetition penalt&amp;y:</source>
        <translation>&amp;Wiederholungsstrafe:</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>&amp;Startwert:</translation>
    </message>
    <message>
        <source>Ge&amp;nerate</source>
        <translation>Ge&amp;nerieren</translation>
    </message>
    <message>
        <source>Let the model write after the sentence, with the heads off and edits on as they are</source>
        <translation>Das Modell nach dem Satz weiterschreiben lassen, mit den abgeschalteten Heads und den Änderungen, wie sie sind</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>St&amp;opp</translation>
    </message>
    <message>
        <source>Stop writing; the tokens so far stay</source>
        <translation>Schreiben anhalten; die bisherigen Tokens bleiben</translation>
    </message>
    <message>
        <source>Step shown</source>
        <translation>Gezeigter Schritt</translation>
    </message>
    <message>
        <source>Back through the steps: the text up to that token, its alternatives and its distribution</source>
        <translation>Zurück durch die Schritte: der Text bis zu diesem Token, seine Alternativen und seine Verteilung</translation>
    </message>
    <message>
        <source>Generated tokens</source>
        <translation>Erzeugte Tokens</translation>
    </message>
    <message>
        <source>Each token written, with the model's probability of it</source>
        <translation>Jedes geschriebene Token mit der Wahrscheinlichkeit, die das Modell ihm gibt</translation>
    </message>
    <message>
        <source>The most likely tokens: grey, the model's probability; inside it, what the filters leave (the chosen token highlighted)</source>
        <translation>Die wahrscheinlichsten Tokens: grau die Wahrscheinlichkeit des Modells; darin, was die Filter übrig lassen (das gewählte Token hervorgehoben)</translation>
    </message>
    <message>
        <source>Open a model and type a sentence, then Generate.</source>
        <translation>Öffnen Sie ein Modell und tippen Sie einen Satz, dann Generieren.</translation>
    </message>
    <message>
        <source>Generate writes after the sentence shown, with its interventions.</source>
        <translation>Generieren schreibt nach dem gezeigten Satz weiter, mit dessen Eingriffen.</translation>
    </message>
    <message>
        <source>Writing…</source>
        <translation>Schreibt…</translation>
    </message>
    <message>
        <source>The sentence before the first token.</source>
        <translation>Der Satz vor dem ersten Token.</translation>
    </message>
    <message>
        <source>Step %1 of %2: "%3", %4 for the model, %5 after the filters (which kept %6 tokens).</source>
        <translation>Schritt %1 von %2: „%3“, %4 für das Modell, %5 nach den Filtern (die %6 Tokens behielten).</translation>
    </message>
    <message>
        <source>Alternatives: %1</source>
        <translation>Alternativen: %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::GradientPage</name>
    <message>
        <source>Query</source>
        <translation>Query</translation>
    </message>
    <message>
        <source>&amp;Query:</source>
        <translation>&amp;Query:</translation>
    </message>
    <message>
        <source>The query whose weights' Jacobian and scores are shown</source>
        <translation>Die Query, deren Jacobi-Matrix der Gewichte und Scores gezeigt werden</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadGridView</name>
    <message>
        <source>Layers and heads</source>
        <translation>Schichten und Heads</translation>
    </message>
    <message>
        <source>Layer %1, head %2 is off: click to switch it on</source>
        <translation>Schicht %1, Head %2 ist aus: zum Einschalten klicken</translation>
    </message>
    <message>
        <source>Click to switch layer %1, head %2 off</source>
        <translation>Klicken, um Schicht %1, Head %2 abzuschalten</translation>
    </message>
    <message>
        <source>No model open: File &gt; Open Model…</source>
        <translation>Kein Modell geöffnet: Datei &gt; Modell öffnen…</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeadViewTabs</name>
    <message>
        <source>&amp;Weights</source>
        <translation>&amp;Gewichte</translation>
    </message>
    <message>
        <source>&amp;Pipeline</source>
        <translation>&amp;Rechenweg</translation>
    </message>
    <message>
        <source>&amp;Lines</source>
        <translation>&amp;Linien</translation>
    </message>
    <message>
        <source>&amp;Difference</source>
        <translation>&amp;Differenz</translation>
    </message>
</context>
<context>
    <name>attn::ui::HeatmapView</name>
    <message>
        <source>Computing…</source>
        <translation>Rechnet…</translation>
    </message>
    <message>
        <source>mean of enabled heads</source>
        <translation>Mittel der eingeschalteten Heads</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;queries %1–%2 × keys %3–%4&lt;/b&gt; (%5)</source>
        <translation>&lt;b&gt;Queries %1–%2 × Keys %3–%4&lt;/b&gt; (%5)</translation>
    </message>
    <message>
        <source>%1 weight of the block: &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>%1 Gewicht des Blocks: &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>largest</source>
        <translation>Größtes</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittleres</translation>
    </message>
    <message>
        <source>&lt;i&gt;%1 tokens are pooled to fit the screen; fewer tokens show single cells.&lt;/i&gt;</source>
        <translation>&lt;i&gt;%1 Tokens sind zusammengefasst, damit sie auf den Bildschirm passen; weniger Tokens zeigen einzelne Zellen.&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, row %2, column %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, Zeile %2, Spalte %3</translation>
    </message>
    <message>
        <source>value: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Wert: &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;query %1 → key %2&lt;/b&gt; · %3</source>
        <translation>&lt;b&gt;Query %1 → Key %2&lt;/b&gt; · %3</translation>
    </message>
    <message>
        <source>this setting: %1</source>
        <translation>diese Einstellung: %1</translation>
    </message>
    <message>
        <source>compared setting: %1</source>
        <translation>verglichene Einstellung: %1</translation>
    </message>
    <message>
        <source>difference: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Differenz: &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>weight: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Gewicht: &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>head %1: %2%3</source>
        <translation>Head %1: %2%3</translation>
    </message>
    <message>
        <source> (off)</source>
        <translation> (aus)</translation>
    </message>
    <message>
        <source>score %1 = %2</source>
        <translation>Score %1 = %2</translation>
    </message>
    <message>
        <source>× %1</source>
        <translation>× %1</translation>
    </message>
    <message>
        <source>1/√d&lt;sub&gt;k&lt;/sub&gt; = 1/√%1</source>
        <translation>1/√d&lt;sub&gt;k&lt;/sub&gt; = 1/√%1</translation>
    </message>
    <message>
        <source>temperature %1</source>
        <translation>Temperatur %1</translation>
    </message>
    <message>
        <source>scaled %1 = %2</source>
        <translation>skaliert %1 = %2</translation>
    </message>
    <message>
        <source>not masked</source>
        <translation>nicht maskiert</translation>
    </message>
    <message>
        <source>masked (%1) → %2</source>
        <translation>maskiert (%1) → %2</translation>
    </message>
    <message>
        <source>not normalized: the scaled score is the weight (masked: 0) → &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>nicht normiert: Der skalierte Score ist das Gewicht (maskiert: 0) → &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 over the row → weight &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>%1 über die Zeile → Gewicht &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;this head is switched off: it adds nothing to the output&lt;/i&gt;</source>
        <translation>&lt;i&gt;Dieser Head ist abgeschaltet: Er trägt nichts zur Ausgabe bei&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Attention heatmap</source>
        <translation>Attention-Heatmap</translation>
    </message>
    <message>
        <source>Arrow keys move a cell cursor; Space masks or unmasks the cell.</source>
        <translation>Die Pfeiltasten bewegen einen Zellcursor; die Leertaste maskiert die Zelle oder gibt sie frei.</translation>
    </message>
</context>
<context>
    <name>attn::ui::ImportanceView</name>
    <message>
        <source>&amp;Rank Heads</source>
        <translation>Heads &amp;einstufen</translation>
    </message>
    <message>
        <source>Switch each head off in turn and measure how much the predicted token's log-probability falls (only the layers above each head recompute)</source>
        <translation>Jeden Head der Reihe nach abschalten und messen, wie stark die Log-Wahrscheinlichkeit des vorhergesagten Tokens fällt (nur die Schichten über dem Head werden neu berechnet)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Rank Heads measures, for the prediction shown, how much each head matters: the drop in the log-probability of the top token when that head alone is switched off.</source>
        <translation>Heads einstufen misst für die gezeigte Vorhersage, wie wichtig jeder Head ist: den Abfall der Log-Wahrscheinlichkeit des besten Tokens, wenn allein dieser Head abgeschaltet wird.</translation>
    </message>
    <message>
        <source>%1 of %2 heads</source>
        <translation>%1 von %2 Heads</translation>
    </message>
    <message>
        <source>Most important heads:</source>
        <translation>Wichtigste Heads:</translation>
    </message>
</context>
<context>
    <name>attn::ui::InputPanel</name>
    <message>
        <source>Self-attention: one sentence</source>
        <translation>Self-Attention: ein Satz</translation>
    </message>
    <message>
        <source>Cross-attention: source and target</source>
        <translation>Cross-Attention: Quelle und Ziel</translation>
    </message>
    <message>
        <source>Type a sentence…</source>
        <translation>Einen Satz eingeben…</translation>
    </message>
    <message>
        <source>&amp;Source (keys and values)</source>
        <translation>&amp;Quelle (Keys und Values)</translation>
    </message>
    <message>
        <source>Type the source sentence…</source>
        <translation>Den Quellsatz eingeben…</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>Wörter</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>Zeichen</translation>
    </message>
    <message>
        <source>White space</source>
        <translation>Leerraum</translation>
    </message>
    <message>
        <source>Words: Unicode word boundaries, punctuation split off. Characters: one token per character. White space: split on spaces only.</source>
        <translation>Wörter: Unicode-Wortgrenzen, Satzzeichen abgetrennt. Zeichen: ein Token je Zeichen. Leerraum: nur an Leerzeichen getrennt.</translation>
    </message>
    <message>
        <source>Lowercase</source>
        <translation>Kleinschreibung</translation>
    </message>
    <message>
        <source>&amp;Tokens:</source>
        <translation>&amp;Tokenisierung:</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>S&amp;pecial:</source>
        <translation>&amp;Sondertokens:</translation>
    </message>
    <message>
        <source>none, e.g. [PAD]</source>
        <translation>keines, z. B. [PAD]</translation>
    </message>
    <message>
        <source>Tokens with exactly this text are padding keys. Clicking a key chip marks single positions as padding.</source>
        <translation>Tokens mit genau diesem Text sind Padding-Keys. Ein Klick auf einen Key-Chip markiert einzelne Positionen als Padding.</translation>
    </message>
    <message>
        <source>Pa&amp;dding token:</source>
        <translation>Pa&amp;dding-Token:</translation>
    </message>
    <message>
        <source>Hashed</source>
        <translation>Gehasht</translation>
    </message>
    <message>
        <source>One-hot</source>
        <translation>One-Hot-Kodierung</translation>
    </message>
    <message>
        <source>Table (editable)</source>
        <translation>Tabelle (editierbar)</translation>
    </message>
    <message>
        <source>Word-vector file…</source>
        <translation>Wortvektordatei…</translation>
    </message>
    <message>
        <source>&amp;Embedding:</source>
        <translation>&amp;Einbettung:</translation>
    </message>
    <message>
        <source>Sinusoidal</source>
        <translation>Sinusförmig</translation>
    </message>
    <message>
        <source>P&amp;ositions:</source>
        <translation>P&amp;ositionen:</translation>
    </message>
    <message>
        <source>Padding masks keys: in cross-attention, mark padding on the source sentence.</source>
        <translation>Padding maskiert Keys: Markieren Sie bei Cross-Attention das Padding im Quellsatz.</translation>
    </message>
    <message>
        <source>T&amp;arget (queries)</source>
        <translation>&amp;Ziel (Queries)</translation>
    </message>
    <message>
        <source>Se&amp;ntence</source>
        <translation>S&amp;atz</translation>
    </message>
    <message>
        <source>%1 target × %2 source tokens</source>
        <translation>%1 Ziel- × %2 Quelltokens</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 Tokens</translation>
    </message>
    <message>
        <source> · %1 padding</source>
        <translation> · %1 Padding</translation>
    </message>
    <message>
        <source> · click a %1chip to mark it as padding</source>
        <translation> · einen %1Chip anklicken, um ihn als Padding zu markieren</translation>
    </message>
    <message>
        <source>source </source>
        <translation>Quell-</translation>
    </message>
    <message>
        <source>Word vectors: %1</source>
        <translation>Wortvektoren: %1</translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation> und %1 weitere</translation>
    </message>
    <message>
        <source>1 word</source>
        <translation>1 Wort</translation>
    </message>
    <message>
        <source>%1 words</source>
        <translation>%1 Wörter</translation>
    </message>
    <message>
        <source>%1 outside the scene's one-hot vocabulary of %2 words got hashed vectors, marked on their chips: %3. Choose One-hot again to give them the free dimensions.</source>
        <translation>%1 außerhalb des One-Hot-Vokabulars der Szene mit %2 Wörtern erhielten gehashte Vektoren, auf ihren Chips markiert: %3. Wählen Sie erneut One-Hot-Kodierung, um ihnen die freien Dimensionen zu geben.</translation>
    </message>
    <message>
        <source>%1 outside the scene's one-hot vocabulary of %2 words (one per dimension of d_model) got hashed vectors, marked on their chips: %3. A wider d_model gives them dimensions of their own.</source>
        <translation>%1 außerhalb des One-Hot-Vokabulars der Szene mit %2 Wörtern (eines je Dimension von d_model) erhielten gehashte Vektoren, auf ihren Chips markiert: %3. Ein breiteres d_model gibt ihnen eigene Dimensionen.</translation>
    </message>
    <message>
        <source>%1 not in the embedding table got hashed vectors, marked on their chips: %2.</source>
        <translation>%1, nicht in der Einbettungstabelle, erhielten gehashte Vektoren, auf ihren Chips markiert: %2.</translation>
    </message>
    <message>
        <source>%1 not in %2 got hashed vectors, marked on their chips: %3.</source>
        <translation>%1, nicht in %2, erhielten gehashte Vektoren, auf ihren Chips markiert: %3.</translation>
    </message>
    <message>
        <source>The positional table has %1 rows: positions from %1 on are sinusoidal.</source>
        <translation>Die Positionstabelle hat %1 Zeilen: Positionen ab %1 sind sinusförmig.</translation>
    </message>
    <message>
        <source>Word Vectors</source>
        <translation>Wortvektoren</translation>
    </message>
    <message>
        <source>GloVe or word2vec text (*.txt *.vec);;All files (*)</source>
        <translation>GloVe- oder word2vec-Text (*.txt *.vec);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Change embedding to %1</source>
        <translation>Einbettung in %1 ändern</translation>
    </message>
    <message>
        <source>Embedding: %1</source>
        <translation>Einbettung: %1</translation>
    </message>
    <message>
        <source>Embedding: %1 has %2-dimensional vectors and d_model is %3; set d_model to %2 first.</source>
        <translation>Einbettung: %1 hat %2-dimensionale Vektoren und d_model ist %3; setzen Sie d_model zuerst auf %2.</translation>
    </message>
    <message>
        <source>Use word vectors from %1</source>
        <translation>Wortvektoren aus %1 verwenden</translation>
    </message>
    <message>
        <source>Change positions to %1</source>
        <translation>Positionen in %1 ändern</translation>
    </message>
    <message>
        <source>Positions: %1</source>
        <translation>Positionen: %1</translation>
    </message>
    <message>
        <source>“%1” is padding because it is the padding token; clear the padding token to unmark it.</source>
        <translation>„%1“ ist Padding, weil es das Padding-Token ist; leeren Sie das Padding-Token, um die Markierung aufzuheben.</translation>
    </message>
    <message>
        <source>The text split into tokens: each token is a query (and a key and value)</source>
        <translation>Der Text, der in Tokens zerlegt wird: jedes Token ist eine Query (und ein Key und Value)</translation>
    </message>
    <message>
        <source>Lowercase the text before it is split, so "The" and "the" are one token</source>
        <translation>Den Text vor dem Zerlegen kleinschreiben, sodass „The“ und „the“ ein Token sind</translation>
    </message>
    <message>
        <source>Tokens added around the sentence, as BERT adds [CLS] and [SEP]</source>
        <translation>Tokens um den Satz herum, wie BERT [CLS] und [SEP] hinzufügt</translation>
    </message>
    <message>
        <source>Cross-attention takes queries from the target sentence and keys and values from the source, as a translation model's decoder does (Bahdanau et al. 2015).</source>
        <translation>Cross-Attention nimmt die Queries aus dem Zielsatz und Keys und Values aus der Quelle, wie es der Decoder eines Übersetzungsmodells tut (Bahdanau u. a. 2015).</translation>
    </message>
</context>
<context>
    <name>attn::ui::IntegerField</name>
    <message>
        <source>%1: %2 is more than %3, the largest possible; it stays %4</source>
        <translation>%1: %2 ist größer als %3, der größtmögliche Wert; er bleibt %4</translation>
    </message>
    <message>
        <source>%1: %2 is less than %3, the smallest possible; it stays %4</source>
        <translation>%1: %2 ist kleiner als %3, der kleinstmögliche Wert; er bleibt %4</translation>
    </message>
</context>
<context>
    <name>attn::ui::KernelPage</name>
    <message>
        <source>Bandwidth</source>
        <translation>Bandbreite</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>distance: −(q − k)²</source>
        <translation>Abstand: −(q − k)²</translation>
    </message>
    <message>
        <source>dot product: q k</source>
        <translation>Skalarprodukt: q k</translation>
    </message>
    <message>
        <source>Reset &amp;points</source>
        <translation>&amp;Punkte zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Bandwidth h:</source>
        <translation>&amp;Bandbreite h:</translation>
    </message>
    <message>
        <source>S&amp;core:</source>
        <translation>S&amp;core:</translation>
    </message>
    <message>
        <source>Drag a point to move a key and its value.</source>
        <translation>Einen Punkt ziehen, um einen Key und seinen Value zu verschieben.</translation>
    </message>
    <message>
        <source>The kernel's width h (logarithmic): softmax of −(q − k)² / 2h² is a Gaussian kernel of width h</source>
        <translation>Die Breite h des Kerns (logarithmisch): Softmax von −(q − k)² / 2h² ist ein Gauß-Kern der Breite h</translation>
    </message>
    <message>
        <source>How the query and each key are compared</source>
        <translation>Wie die Query mit jedem Key verglichen wird</translation>
    </message>
    <message>
        <source>The points back where the scene puts them</source>
        <translation>Die Punkte zurück an ihre Stellen in der Szene</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>Kernel smoother</source>
        <translation>Kern-Glätter</translation>
    </message>
    <message>
        <source>Fixed against learned</source>
        <translation>Fest gegen gelernt</translation>
    </message>
    <message>
        <source>Kernel machines tune the kernel; attention keeps it fixed and learns the embedding of queries and keys (seed 004)</source>
        <translation>Kern-Maschinen stimmen den Kern ab; Attention hält ihn fest und lernt die Einbettung von Queries und Keys (Seed 004)</translation>
    </message>
    <message>
        <source>Sho&amp;w:</source>
        <translation>An&amp;zeigen:</translation>
    </message>
</context>
<context>
    <name>attn::ui::KvCacheView</name>
    <message>
        <source>Layer %1 · head %2 · what the newest token meets</source>
        <translation>Schicht %1 · Kopf %2 · worauf das neueste Token trifft</translation>
    </message>
    <message>
        <source>Query head %1 reads key/value head %2, shared by query heads %3 to %4 (grouped-query attention).</source>
        <translation>Abfragekopf %1 liest Key/Value-Kopf %2, den sich die Abfrageköpfe %3 bis %4 teilen (Grouped-Query-Attention).</translation>
    </message>
    <message>
        <source>Each head has keys and values of its own.</source>
        <translation>Jeder Kopf hat eigene Keys und Values.</translation>
    </message>
    <message>
        <source> (the %1 earlier rows are not drawn)</source>
        <translation> (die %1 früheren Zeilen sind nicht gezeichnet)</translation>
    </message>
    <message>
        <source>Rows 1 to %1: keys (K) and values (V) kept from earlier steps%2. Row %3 (framed): the newest token, the only row computed now; its query meets every cached key. Colours: each matrix's values, blue negative, red positive.</source>
        <translation>Zeilen 1 bis %1: Keys (K) und Values (V), aus früheren Schritten behalten%2. Zeile %3 (umrahmt): das neueste Token, die einzige jetzt berechnete Zeile; seine Query trifft auf jeden gespeicherten Key. Farben: die Werte jeder Matrix, blau negativ, rot positiv.</translation>
    </message>
    <message>
        <source>token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>K (keys)</source>
        <translation>K (Keys)</translation>
    </message>
    <message>
        <source>V (values)</source>
        <translation>V (Values)</translation>
    </message>
    <message>
        <source>the newest query's weight</source>
        <translation>Gewicht der neuesten Query</translation>
    </message>
    <message>
        <source>&lt;b&gt;The key/value cache.&lt;/b&gt; In a causal model a token only looks back, so its keys and values never change once computed. When the model writes a token, or you type at the end of the sentence, every layer keeps the keys and values of the tokens before (the cache) and computes only the new token's query, key and value; its query meets the cached keys. Editing an earlier word computes again from that word on.</source>
        <translation>&lt;b&gt;Der Key/Value-Cache.&lt;/b&gt; In einem kausalen Modell blickt ein Token nur zurück, darum ändern sich seine Keys und Values nie mehr, wenn sie einmal berechnet sind. Schreibt das Modell ein Token oder tippen Sie am Ende des Satzes, behält jede Schicht die Keys und Values der Tokens davor (den Cache) und berechnet nur Query, Key und Value des neuen Tokens; seine Query trifft auf die gespeicherten Keys. Wird ein früheres Wort geändert, wird ab diesem Wort neu gerechnet.</translation>
    </message>
    <message>
        <source>&lt;p&gt;Floating-point operations of the matrix products, 2 per multiply-add, per layer for n query rows meeting K key cells in all:&lt;br&gt;2·n·d·(h + 2g)·d_head (Q, K, V) + 2·h·d_head·K·2 (scores, weights × V)&lt;br&gt;+ 2·n·h·d_head·d (W_O) + 2·n·d·d_ff·m (feed-forward, m = 3 when gated, else 2),&lt;br&gt;times the layers, plus 2·d·vocab for the logits. With the cache n = 1 and K = T; without it n = T and K = T(T + 1)/2. Norms and softmax are left out.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Gleitkommaoperationen der Matrixprodukte, 2 je Multiplikation mit Addition, pro Schicht für n Query-Zeilen, die insgesamt auf K Key-Zellen treffen:&lt;br&gt;2·n·d·(h + 2g)·d_head (Q, K, V) + 2·h·d_head·K·2 (Scores, Gewichte × V)&lt;br&gt;+ 2·n·h·d_head·d (W_O) + 2·n·d·d_ff·m (Feed-Forward, m = 3 mit Gate, sonst 2),&lt;br&gt;mal die Schichten, plus 2·d·Vokabular für die Logits. Mit dem Cache n = 1 und K = T; ohne ihn n = T und K = T(T + 1)/2. Normierungen und Softmax sind nicht mitgezählt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>E&amp;xport Figure…</source>
        <translation>Abbildung e&amp;xportieren…</translation>
    </message>
    <message>
        <source>The cached rows of the selected head as PDF, SVG or PNG</source>
        <translation>Die gespeicherten Zeilen des gewählten Kopfes als PDF, SVG oder PNG</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>Abbildung exportieren</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</source>
        <translation>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3 · the key/value cache</source>
        <translation>%1 · Schicht %2 · Kopf %3 · der Key/Value-Cache</translation>
    </message>
    <message>
        <source>Export: the file name must end in .png, .svg or .pdf</source>
        <translation>Export: Der Dateiname muss auf .png, .svg oder .pdf enden</translation>
    </message>
    <message>
        <source>The figure was not exported: %1</source>
        <translation>Die Abbildung wurde nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Open a causal model (GPT-2, Llama, …) to see what it caches.</source>
        <translation>Öffnen Sie ein kausales Modell (GPT-2, Llama, …), um zu sehen, was es speichert.</translation>
    </message>
    <message>
        <source>%1 reads the whole sentence at once (each token also looks ahead), so a new token changes every earlier one and nothing can be cached: the key/value cache is for causal models, which write left to right.</source>
        <translation>%1 liest den ganzen Satz auf einmal (jedes Token blickt auch nach vorn), darum ändert ein neues Token jedes frühere und nichts kann gespeichert werden: Der Key/Value-Cache ist für kausale Modelle, die von links nach rechts schreiben.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cached:&lt;/b&gt; %1 layers × %2 key/value heads × %3 tokens × %4 (d_head) × 2 (K and V) × 4 bytes = &lt;b&gt;%5 MiB&lt;/b&gt; (%6 bytes).</source>
        <translation>&lt;b&gt;Gespeichert:&lt;/b&gt; %1 Schichten × %2 Key/Value-Köpfe × %3 Tokens × %4 (d_head) × 2 (K und V) × 4 Bytes = &lt;b&gt;%5 MiB&lt;/b&gt; (%6 Bytes).</translation>
    </message>
    <message>
        <source>&lt;b&gt;The newest token:&lt;/b&gt; %1FLOP with the cache, %2FLOP without it (a whole forward of %3 tokens), %4× as many.</source>
        <translation>&lt;b&gt;Das neueste Token:&lt;/b&gt; %1FLOP mit dem Cache, %2FLOP ohne ihn (ein ganzer Forward-Durchlauf über %3 Tokens), %4-mal so viele.</translation>
    </message>
    <message>
        <source>Measured: this run took %1 ms through the cache (%2 of %3 positions computed, the first %4 reused).</source>
        <translation>Gemessen: Dieser Durchlauf dauerte %1 ms über den Cache (%2 von %3 Positionen berechnet, die ersten %4 wiederverwendet).</translation>
    </message>
    <message>
        <source>Measured: this run took %1 ms, layers %2 to %3 computed again after an intervention.</source>
        <translation>Gemessen: Dieser Durchlauf dauerte %1 ms, die Schichten %2 bis %3 nach einem Eingriff neu berechnet.</translation>
    </message>
    <message>
        <source>Measured: this run took %1 ms, a whole forward of %2 positions.</source>
        <translation>Gemessen: Dieser Durchlauf dauerte %1 ms, ein ganzer Forward-Durchlauf über %2 Positionen.</translation>
    </message>
    <message>
        <source>The last whole forward: %1 ms for %2 positions.</source>
        <translation>Der letzte ganze Forward-Durchlauf: %1 ms für %2 Positionen.</translation>
    </message>
    <message>
        <source>The last run through the cache: %1 ms for %2 new of %3 positions.</source>
        <translation>Der letzte Durchlauf über den Cache: %1 ms für %2 neue von %3 Positionen.</translation>
    </message>
    <message>
        <source>Type a word at the end of the sentence to measure a step through the cache.</source>
        <translation>Tippen Sie ein Wort am Ende des Satzes, um einen Schritt über den Cache zu messen.</translation>
    </message>
    <message>
        <source>%1 (each shared by %2 query heads)</source>
        <translation>%1 (jeder von %2 Abfrageköpfen geteilt)</translation>
    </message>
    <message>
        <source>%1 × %2 each</source>
        <translation>je %1 × %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Per layer&lt;/b&gt;&lt;table cellspacing=6&gt;&lt;tr&gt;&lt;th align=left&gt;layer&lt;/th&gt;&lt;th align=left&gt;K and V heads&lt;/th&gt;&lt;th align=left&gt;K, V&lt;/th&gt;&lt;th align=right&gt;bytes&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;</source>
        <translation>&lt;b&gt;Pro Schicht&lt;/b&gt;&lt;table cellspacing=6&gt;&lt;tr&gt;&lt;th align=left&gt;Schicht&lt;/th&gt;&lt;th align=left&gt;K- und V-Köpfe&lt;/th&gt;&lt;th align=left&gt;K, V&lt;/th&gt;&lt;th align=right&gt;Bytes&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;</translation>
    </message>
</context>
<context>
    <name>attn::ui::LayersPage</name>
    <message>
        <source>one attention layer</source>
        <translation>eine Attention-Schicht</translation>
    </message>
    <message>
        <source>%1 × (attention + feed-forward)</source>
        <translation>%1 × (Attention + Feed-Forward)</translation>
    </message>
    <message>
        <source>Blocks kept keep their weights; a new block gets weights drawn from the scene's seed. Post-norm: each sum is layer-normalised.</source>
        <translation>Behaltene Blöcke behalten ihre Gewichte; ein neuer Block bekommt Gewichte aus dem Seed der Szene. Post-Norm: jede Summe wird schichtnormalisiert.</translation>
    </message>
    <message>
        <source>&amp;Blocks:</source>
        <translation>&amp;Blöcke:</translation>
    </message>
</context>
<context>
    <name>attn::ui::LensTabs</name>
    <message>
        <source>Logit lens</source>
        <translation>Logit-Lens</translation>
    </message>
    <message>
        <source>What each layer would predict at each position: the final norm and the unembedding applied after every layer</source>
        <translation>Was jede Schicht an jeder Position vorhersagen würde: die letzte Norm und das Unembedding nach jeder Schicht angewandt</translation>
    </message>
    <message>
        <source>Patc&amp;hing</source>
        <translation>Patc&amp;hing</translation>
    </message>
    <message>
        <source>Activation patching: which heads carry the answer from a clean prompt into a corrupted one</source>
        <translation>Activation Patching: welche Köpfe die Antwort aus einem sauberen Prompt in einen verfälschten tragen</translation>
    </message>
    <message>
        <source>Attri&amp;bution</source>
        <translation>Attri&amp;bution</translation>
    </message>
    <message>
        <source>Direct logit attribution: each head's share of the predicted token's logit</source>
        <translation>Direkte Logit-Attribution: der Anteil jedes Kopfes am Logit des vorhergesagten Tokens</translation>
    </message>
</context>
<context>
    <name>attn::ui::LensTraceView</name>
    <message>
        <source>The logit lens at the predicted position: the bar is full for rank 1 (a log scale down to the vocabulary's last rank), the number is the rank</source>
        <translation>Die Logit-Lens an der vorhergesagten Position: der Balken ist bei Rang 1 voll (logarithmische Skala bis zum letzten Rang des Vokabulars), die Zahl ist der Rang</translation>
    </message>
    <message>
        <source>Rank of %1 after each layer: 1 from layer %2</source>
        <translation>Rang von %1 nach jeder Schicht: 1 ab Schicht %2</translation>
    </message>
    <message>
        <source>Rank of %1 after each layer: %2 at the last</source>
        <translation>Rang von %1 nach jeder Schicht: %2 nach der letzten</translation>
    </message>
    <message>
        <source>%1; ranks by layer: %2</source>
        <translation>%1; Ränge nach Schicht: %2</translation>
    </message>
    <message>
        <source>After layer %1: %2 is rank %3, p = %4</source>
        <translation>Nach Schicht %1: %2 hat Rang %3, p = %4</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>S%1</translation>
    </message>
</context>
<context>
    <name>attn::ui::LensView</name>
    <message>
        <source>Left: the top token if the model stopped after that layer (colour: its probability). Right: the rank of the followed token there (1: the top).</source>
        <translation>Links: das wahrscheinlichste Token, wenn das Modell nach dieser Schicht aufhörte (Farbe: seine Wahrscheinlichkeit). Rechts: der Rang des verfolgten Tokens dort (1: das oberste).</translation>
    </message>
    <message>
        <source>The token %1%2%3 %4</source>
        <translation>Das Token %1%2%3 %4</translation>
    </message>
    <message>
        <source>Write one token (a comma separates two)</source>
        <translation>Schreiben Sie ein Token (ein Komma trennt zwei)</translation>
    </message>
    <message>
        <source>Follow to&amp;ken:</source>
        <translation>To&amp;ken verfolgen:</translation>
    </message>
    <message>
        <source>the model's prediction</source>
        <translation>die Vorhersage des Modells</translation>
    </message>
    <message>
        <source>The token whose rank is followed through the layers: empty for what the model predicts at each position, or one token of the vocabulary (with its leading space, as " Mary")</source>
        <translation>Das Token, dessen Rang durch die Schichten verfolgt wird: leer für das, was das Modell an jeder Position vorhersagt, sonst ein Token des Vokabulars (mit seinem führenden Leerzeichen, wie " Mary")</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop computing the lens</source>
        <translation>Die Berechnung der Lens abbrechen</translation>
    </message>
    <message>
        <source>No model open</source>
        <translation>Kein Modell geöffnet</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Computing the lens…</source>
        <translation>Die Lens wird berechnet…</translation>
    </message>
</context>
<context>
    <name>attn::ui::LinesView</name>
    <message>
        <source>Queries (target)</source>
        <translation>Queries (Ziel)</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>Queries</translation>
    </message>
    <message>
        <source>Keys (source)</source>
        <translation>Keys (Quelle)</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <source>No attention weights to draw.</source>
        <translation>Keine Attention-Gewichte zu zeichnen.</translation>
    </message>
    <message>
        <source>There is no head %1; this result has %2.</source>
        <translation>Es gibt keinen Head %1; dieses Ergebnis hat %2.</translation>
    </message>
    <message>
        <source>These weights are pooled into blocks of %1 × %2 cells, so their rows are no longer tokens. The lines view needs one row per token: shorten the input, or use the heatmap.</source>
        <translation>Diese Gewichte sind zu Blöcken von %1 × %2 Zellen zusammengefasst, ihre Zeilen sind also keine Tokens mehr. Die Linienansicht braucht eine Zeile je Token: Kürzen Sie die Eingabe oder verwenden Sie die Heatmap.</translation>
    </message>
    <message>
        <source>No tokens.</source>
        <translation>Keine Tokens.</translation>
    </message>
    <message>
        <source>%1 queries and %2 keys are too many to draw as lines (at most %3 a side). The heatmap shows every weight.</source>
        <translation>%1 Queries und %2 Keys sind zu viele, um sie als Linien zu zeichnen (höchstens %3 je Seite). Die Heatmap zeigt jedes Gewicht.</translation>
    </message>
    <message>
        <source>The weights (%1 × %2) do not match the tokens (%3 × %4).</source>
        <translation>Die Gewichte (%1 × %2) passen nicht zu den Tokens (%3 × %4).</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2 %3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2 %3)</translation>
    </message>
    <message>
        <source>query</source>
        <translation>Query</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>&lt;br&gt;attends most to:</source>
        <translation>&lt;br&gt;achtet am stärksten auf:</translation>
    </message>
    <message>
        <source>&lt;br&gt;attended most by:</source>
        <translation>&lt;br&gt;am stärksten beachtet von:</translation>
    </message>
    <message>
        <source>No result yet</source>
        <translation>Noch kein Ergebnis</translation>
    </message>
</context>
<context>
    <name>attn::ui::MatrixEditor</name>
    <message>
        <source>Randomize</source>
        <translation>Zufallswerte</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Einheitsmatrix</translation>
    </message>
    <message>
        <source>Ones on the diagonal, zeros elsewhere</source>
        <translation>Einsen auf der Diagonale, sonst Nullen</translation>
    </message>
    <message>
        <source>Zero</source>
        <translation>Nullen</translation>
    </message>
    <message>
        <source>Every value 0</source>
        <translation>Jeder Wert 0</translation>
    </message>
    <message>
        <source>Transpose</source>
        <translation>Transponieren</translation>
    </message>
    <message>
        <source>Scale…</source>
        <translation>Skalieren…</translation>
    </message>
    <message>
        <source>Multiply every value by a factor</source>
        <translation>Jeden Wert mit einem Faktor multiplizieren</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>Importieren…</translation>
    </message>
    <message>
        <source>Read the values from a .npy, .csv or .safetensors file of the same shape</source>
        <translation>Die Werte aus einer .npy-, .csv- oder .safetensors-Datei derselben Form lesen</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Write the values to a .npy, .csv or .safetensors file</source>
        <translation>Die Werte in eine .npy-, .csv- oder .safetensors-Datei schreiben</translation>
    </message>
    <message>
        <source>· seed %1</source>
        <translation>· Startwert %1</translation>
    </message>
    <message>
        <source>Xavier-uniform values, ±sqrt(6 / (rows + columns)), from seed %1 (the seed then advances)</source>
        <translation>Gleichverteilte Xavier-Werte, ±sqrt(6 / (Zeilen + Spalten)), aus Startwert %1 (danach rückt der Startwert weiter)</translation>
    </message>
    <message>
        <source>Type a number (%1).</source>
        <translation>Geben Sie eine Zahl ein (%1).</translation>
    </message>
    <message>
        <source>%1 is too large: values must be finite, with %2.</source>
        <translation>%1 ist zu groß: Werte müssen endlich sein, mit %2.</translation>
    </message>
    <message>
        <source>“%1” is not a number; type a value such as 0.25 or -1e-3.</source>
        <translation>„%1“ ist keine Zahl; geben Sie einen Wert wie 0.25 oder -1e-3 ein.</translation>
    </message>
    <message>
        <source>%1 is not allowed: values must be finite, with %2.</source>
        <translation>%1 ist nicht erlaubt: Werte müssen endlich sein, mit %2.</translation>
    </message>
    <message>
        <source>%1 is too large: values must satisfy %2.</source>
        <translation>%1 ist zu groß: Werte müssen %2 erfüllen.</translation>
    </message>
    <message>
        <source>Randomize %1 (seed %2)</source>
        <translation>%1 zufällig füllen (Startwert %2)</translation>
    </message>
    <message>
        <source>Identity %1</source>
        <translation>%1 als Einheitsmatrix</translation>
    </message>
    <message>
        <source>Zero %1</source>
        <translation>%1 auf null</translation>
    </message>
    <message>
        <source>Only a square matrix can be transposed here: %1 is %2, and its shape is fixed.</source>
        <translation>Nur eine quadratische Matrix kann hier transponiert werden: %1 ist %2, und ihre Form ist fest.</translation>
    </message>
    <message>
        <source>Transpose %1</source>
        <translation>%1 transponieren</translation>
    </message>
    <message>
        <source>Scaling %1 by %2 would leave values outside %3; nothing changed.</source>
        <translation>%1 mit %2 zu skalieren ergäbe Werte außerhalb von %3; nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Scale %1 by %2</source>
        <translation>%1 mit %2 skalieren</translation>
    </message>
    <message>
        <source>Cannot import %1: %2</source>
        <translation>%1 kann nicht importiert werden: %2</translation>
    </message>
    <message>
        <source>Cannot import %1: it holds a %2 matrix, and %3 is %4. Nothing was changed.</source>
        <translation>%1 kann nicht importiert werden: Die Datei enthält eine %2-Matrix, und %3 ist %4. Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Cannot import %1: %2. Nothing was changed.</source>
        <translation>%1 kann nicht importiert werden: %2. Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Import %1 into %2</source>
        <translation>%1 in %2 importieren</translation>
    </message>
    <message>
        <source>Cannot export %1: %2</source>
        <translation>%1 kann nicht exportiert werden: %2</translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation>%1 nach %2 exportiert</translation>
    </message>
    <message>
        <source>Scale %1</source>
        <translation>%1 skalieren</translation>
    </message>
    <message>
        <source>Multiply every value by:</source>
        <translation>Jeden Wert multiplizieren mit:</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>%1 importieren</translation>
    </message>
    <message>
        <source>Matrices (*.npy *.csv *.safetensors);;NumPy (*.npy);;CSV (*.csv);;safetensors (*.safetensors)</source>
        <translation>Matrizen (*.npy *.csv *.safetensors);;NumPy (*.npy);;CSV (*.csv);;safetensors (*.safetensors)</translation>
    </message>
    <message>
        <source>Tensor in %1:</source>
        <translation>Tensor in %1:</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>%1 exportieren</translation>
    </message>
    <message>
        <source>NumPy (*.npy);;CSV (*.csv);;safetensors (*.safetensors)</source>
        <translation>NumPy-Array (*.npy);;CSV-Datei (*.csv);;safetensors-Datei (*.safetensors)</translation>
    </message>
    <message>
        <source>Cannot paste: %1</source>
        <translation>Einfügen nicht möglich: %1</translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>Zeile %1</translation>
    </message>
    <message>
        <source>, column %1</source>
        <translation>, Spalte %1</translation>
    </message>
    <message>
        <source>Select a cell, then type a value or drag up and down</source>
        <translation>Eine Zelle wählen, dann einen Wert eingeben oder nach oben und unten ziehen</translation>
    </message>
    <message>
        <source>%1 = %2 · drag ↕ to change, Shift for fine</source>
        <translation>%1 = %2 · ↕ ziehen zum Ändern, Umschalt für fein</translation>
    </message>
    <message>
        <source>Swap rows and columns</source>
        <translation>Zeilen und Spalten vertauschen</translation>
    </message>
    <message>
        <source>Only a square matrix can be transposed: the shape is fixed</source>
        <translation>Nur eine quadratische Matrix kann transponiert werden: Die Form ist fest</translation>
    </message>
    <message>
        <source>Matrix values</source>
        <translation>Matrixwerte</translation>
    </message>
    <message>
        <source>Arrow keys choose a cell; typing a number replaces its value.</source>
        <translation>Pfeiltasten wählen eine Zelle; eine eingetippte Zahl ersetzt ihren Wert.</translation>
    </message>
</context>
<context>
    <name>attn::ui::MatrixPanelsView</name>
    <message>
        <source>%1
%2 %3 · %4 %5: %6</source>
        <translation>%1
%2 %3 · %4 %5: %6</translation>
    </message>
</context>
<context>
    <name>attn::ui::MessageBar</name>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>More</source>
        <translation>Mehr</translation>
    </message>
    <message>
        <source>Show the whole message</source>
        <translation>Die ganze Meldung zeigen</translation>
    </message>
    <message>
        <source>Less</source>
        <translation>Weniger</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelDocument</name>
    <message>
        <source>No model</source>
        <translation>Kein Modell</translation>
    </message>
    <message>
        <source>Switch off layer %1 head %2</source>
        <translation>Schicht %1 Head %2 abschalten</translation>
    </message>
    <message>
        <source>Switch on layer %1 head %2</source>
        <translation>Schicht %1 Head %2 einschalten</translation>
    </message>
    <message>
        <source>%1 · layer %2</source>
        <translation>%1 · Schicht %2</translation>
    </message>
    <message>
        <source>Temperature · layer %1</source>
        <translation>Temperatur · Schicht %1</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>%1 bearbeiten</translation>
    </message>
    <message>
        <source> · layer %1 head %2</source>
        <translation> · Schicht %1 Head %2</translation>
    </message>
    <message>
        <source>Reset model</source>
        <translation>Modell zurücksetzen</translation>
    </message>
    <message>
        <source>Encoder: </source>
        <translation>Encoder: </translation>
    </message>
    <message>
        <source>Cross-attention: </source>
        <translation>Cross-Attention: </translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelHeadPanel</name>
    <message>
        <source>Head &amp;on (its output goes into W^O)</source>
        <translation>Head &amp;an (seine Ausgabe geht in W^O ein)</translation>
    </message>
    <message>
        <source>&amp;Score:</source>
        <translation>&amp;Score:</translation>
    </message>
    <message>
        <source>&amp;Normalize:</source>
        <translation>&amp;Normieren:</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatur:</translation>
    </message>
    <message>
        <source>&amp;Causal mask (no looking ahead)</source>
        <translation>&amp;Kausale Maske (kein Vorausschauen)</translation>
    </message>
    <message>
        <source>&amp;Window ±</source>
        <translation>&amp;Fenster ±</translation>
    </message>
    <message>
        <source>−∞ (excluded)</source>
        <translation>−∞ (ausgeschlossen)</translation>
    </message>
    <message>
        <source>−9e15</source>
        <translation>−9e15</translation>
    </message>
    <message>
        <source>&amp;Masked value:</source>
        <translation>&amp;Maskierter Wert:</translation>
    </message>
    <message>
        <source>Checkpoint's settings</source>
        <translation>Einstellungen des Checkpoints</translation>
    </message>
    <message>
        <source>The scaled dot product, softmax, temperature 1 and the model's own mask</source>
        <translation>Das skalierte Skalarprodukt, Softmax, Temperatur 1 und die eigene Maske des Modells</translation>
    </message>
    <message>
        <source>&amp;Projection:</source>
        <translation>&amp;Projektion:</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>Normierung</translation>
    </message>
    <message>
        <source>Masked value</source>
        <translation>Maskierter Wert</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>Kausale Maske</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Checkpoint's settings · layer %1</source>
        <translation>Einstellungen des Checkpoints · Schicht %1</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>Schicht %1 · Head %2</translation>
    </message>
    <message>
        <source>No model open</source>
        <translation>Kein Modell geöffnet</translation>
    </message>
    <message>
        <source>How layer %1 computes attention: these settings act on all %2 of its heads, as the model computes a layer's heads with one setting.</source>
        <translation>Wie Schicht %1 die Attention berechnet: Diese Einstellungen wirken auf alle %2 ihrer Heads, da das Modell die Heads einer Schicht mit einer Einstellung berechnet.</translation>
    </message>
    <message>
        <source>%1 · layer %2 head %3</source>
        <translation>%1 · Schicht %2 Head %3</translation>
    </message>
    <message>
        <source>Window width</source>
        <translation>Fensterbreite</translation>
    </message>
    <message>
        <source>How many tokens on each side a query may attend to</source>
        <translation>Wie viele Token auf jeder Seite eine Query beachten darf</translation>
    </message>
    <message>
        <source>Off: the head's output is left out of W^O, and the prediction is computed again</source>
        <translation>Aus: die Ausgabe des Heads fehlt in W^O, und die Vorhersage wird neu berechnet</translation>
    </message>
    <message>
        <source>Each token attends only to itself and the tokens before it</source>
        <translation>Jedes Token beachtet nur sich selbst und die Tokens davor</translation>
    </message>
    <message>
        <source>Each query attends only to keys at most this many tokens away</source>
        <translation>Jede Query beachtet nur Keys, die höchstens so viele Tokens entfernt sind</translation>
    </message>
    <message>
        <source>What a masked score becomes: −∞ gives it weight 0 exactly; −9e15 spreads a fully masked row evenly</source>
        <translation>Was aus einem maskierten Score wird: −∞ gibt ihm genau das Gewicht 0; −9e15 verteilt eine ganz maskierte Zeile gleichmäßig</translation>
    </message>
    <message>
        <source>The selected head's projection matrix shown below</source>
        <translation>Die Projektionsmatrix des gewählten Heads, unten gezeigt</translation>
    </message>
    <message>
        <source>The head's W^v times this factor: how loudly the head writes what it reads</source>
        <translation>W^v des Kopfs mal diesen Faktor: wie laut der Kopf schreibt, was er liest</translation>
    </message>
    <message>
        <source>&amp;Scale W^v:</source>
        <translation>W^v ska&amp;lieren:</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>Encoder-Self-Attention</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>Cross-Attention</translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3</source>
        <translation>%1 · Schicht %2 · Head %3</translation>
    </message>
    <message>
        <source>The encoder's and the cross-attention's heads take heads off, a layer's temperature and W^v's scale, as in the Translate tab</source>
        <translation>Heads des Encoders und der Cross-Attention lassen sich abschalten, in der Temperatur ihrer Schicht ändern und in W^v skalieren, wie im Tab „Übersetzen“</translation>
    </message>
    <message>
        <source>%1 · %2 layer %3 head %4</source>
        <translation>%1 · %2 Schicht %3 Head %4</translation>
    </message>
    <message>
        <source>encoder</source>
        <translation>Encoder</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>Cross-Attention</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelLoadJob</name>
    <message>
        <source>Not enough memory to load the model.</source>
        <translation>Nicht genug Arbeitsspeicher, um das Modell zu laden.</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelRecovery</name>
    <message>
        <source>Autosave failed: %1</source>
        <translation>Automatisches Speichern fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>its model %1 was not opened</source>
        <translation>ihr Modell %1 wurde nicht geöffnet</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelSceneFiles</name>
    <message>
        <source>Could not open %1. %2</source>
        <translation>%1 konnte nicht geöffnet werden. %2</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Konnte nicht speichern: %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Save Scene As</source>
        <translation>Szene speichern unter</translation>
    </message>
</context>
<context>
    <name>attn::ui::ModelWindow</name>
    <message>
        <source>&lt;b&gt;Every layer and head&lt;/b&gt;</source>
        <translation>&lt;b&gt;Jede Schicht und jeder Head&lt;/b&gt;</translation>
    </message>
    <message>
        <source>These weights minus those &amp;scored by:</source>
        <translation>Diese Gewichte minus die Gewichte unter dem &amp;Score:</translation>
    </message>
    <message>
        <source>&amp;Rollout</source>
        <translation>R&amp;ollout</translation>
    </message>
    <message>
        <source>&amp;Importance</source>
        <translation>&amp;Wichtigkeit</translation>
    </message>
    <message>
        <source>The selected head's attention weights: queries as rows, keys as columns</source>
        <translation>Die Attention-Gewichte des ausgewählten Heads: Queries als Zeilen, Keys als Spalten</translation>
    </message>
    <message>
        <source>X, Q, K, V, scores, masked scores, weights and output of the selected head</source>
        <translation>X, Q, K, V, Scores, maskierte Scores, Gewichte und Ausgabe des ausgewählten Heads</translation>
    </message>
    <message>
        <source>Each query of the selected head joined to every key by a line as strong as its weight</source>
        <translation>Jede Query des ausgewählten Heads mit jedem Key durch eine Linie verbunden, so stark wie ihr Gewicht</translation>
    </message>
    <message>
        <source>The selected head's weights minus its weights under another score</source>
        <translation>Die Gewichte des ausgewählten Heads minus seine Gewichte unter einem anderen Score</translation>
    </message>
    <message>
        <source>Attention rollout (Abnar &amp; Zuidema 2020) through the selected layer, beside that layer's raw mean</source>
        <translation>Attention-Rollout (Abnar &amp; Zuidema 2020) durch die ausgewählte Schicht, neben dem einfachen Mittel dieser Schicht</translation>
    </message>
    <message>
        <source>How much each head matters to the prediction</source>
        <translation>Wie wichtig jeder Head für die Vorhersage ist</translation>
    </message>
    <message>
        <source>&amp;Reset Model</source>
        <translation>Modell &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Undo every intervention: back to the checkpoint (Ctrl+R; Ctrl+Z brings them back)</source>
        <translation>Jeden Eingriff rückgängig machen: zurück zum Checkpoint (Strg+R; Strg+Z bringt sie zurück)</translation>
    </message>
    <message>
        <source>&amp;Sentence:</source>
        <translation>&amp;Satz:</translation>
    </message>
    <message>
        <source>Type a sentence</source>
        <translation>Einen Satz eingeben</translation>
    </message>
    <message>
        <source>Tokens (pick one to see what it attends to in every head):</source>
        <translation>Tokens (eines wählen, um zu sehen, worauf es in jedem Head achtet):</translation>
    </message>
    <message>
        <source>&lt;b&gt;Prediction&lt;/b&gt; (tick: the unedited model)</source>
        <translation>&lt;b&gt;Vorhersage&lt;/b&gt; (Strich: das unveränderte Modell)</translation>
    </message>
    <message>
        <source>Sentence and prediction</source>
        <translation>Satz und Vorhersage</translation>
    </message>
    <message>
        <source>Selected head</source>
        <translation>Ausgewählter Head</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;Model…</source>
        <translation>&amp;Modell öffnen…</translation>
    </message>
    <message>
        <source>&amp;Open Scene…</source>
        <translation>Szene ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>&amp;Export Head Figure…</source>
        <translation>Head-Abbildung &amp;exportieren…</translation>
    </message>
    <message>
        <source>Export &amp;Model Figure</source>
        <translation>M&amp;odell-Abbildung exportieren</translation>
    </message>
    <message>
        <source>&amp;Layers × Heads Grid…</source>
        <translation>&amp;Schichten × Heads als Raster…</translation>
    </message>
    <message>
        <source>&amp;Rollout…</source>
        <translation>Attention-&amp;Rollout…</translation>
    </message>
    <message>
        <source>&amp;Predictions…</source>
        <translation>&amp;Vorhersagen…</translation>
    </message>
    <message>
        <source>Head &amp;Importance…</source>
        <translation>&amp;Wichtigkeit der Heads…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>Sch&amp;ließen</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Grid</source>
        <translation>&amp;Raster</translation>
    </message>
    <message>
        <source>&amp;Clear Token Focus</source>
        <translation>Token-&amp;Fokus aufheben</translation>
    </message>
    <message>
        <source>&amp;Present Head</source>
        <translation>Head &amp;präsentieren</translation>
    </message>
    <message>
        <source>&amp;Compute</source>
        <translation>Be&amp;rechnung</translation>
    </message>
    <message>
        <source>&amp;Auto (the faster here)</source>
        <translation>&amp;Automatisch (das hier schnellere)</translation>
    </message>
    <message>
        <source>&amp;CPU</source>
        <translation>&amp;CPU</translation>
    </message>
    <message>
        <source>&amp;Vulkan</source>
        <translation>&amp;Vulkan</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Rechnet…</translation>
    </message>
    <message>
        <source>Loading %p%</source>
        <translation>Lädt %p%</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>%1 wird geladen…</translation>
    </message>
    <message>
        <source>Loading layer %1 of %2</source>
        <translation>Schicht %1 von %2 wird geladen</translation>
    </message>
    <message>
        <source>Could not open the model %1. %2</source>
        <translation>Das Modell %1 konnte nicht geöffnet werden. %2</translation>
    </message>
    <message>
        <source>Loading %1 was cancelled.</source>
        <translation>Das Laden von %1 wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The model could not be computed.</source>
        <translation>Das Modell konnte nicht berechnet werden.</translation>
    </message>
    <message>
        <source>Not computed: the figures show an earlier input</source>
        <translation>Nicht berechnet: Die Abbildungen zeigen eine frühere Eingabe</translation>
    </message>
    <message>
        <source>Not computed</source>
        <translation>Nicht berechnet</translation>
    </message>
    <message>
        <source>No model open: File &gt; Open Model… (Ctrl+Shift+O)</source>
        <translation>Kein Modell geöffnet: Datei &gt; Modell öffnen… (Strg+Umschalt+O)</translation>
    </message>
    <message>
        <source>No model open</source>
        <translation>Kein Modell geöffnet</translation>
    </message>
    <message>
        <source>Ranked for an earlier run: Rank Heads again for this one.</source>
        <translation>Für einen früheren Lauf eingestuft: Stufen Sie die Heads für diesen erneut ein.</translation>
    </message>
    <message>
        <source>1 head off</source>
        <translation>1 Head aus</translation>
    </message>
    <message>
        <source>%1 heads off</source>
        <translation>%1 Heads aus</translation>
    </message>
    <message>
        <source>1 head edited</source>
        <translation>1 Head bearbeitet</translation>
    </message>
    <message>
        <source>%1 heads edited</source>
        <translation>%1 Heads bearbeitet</translation>
    </message>
    <message>
        <source>(click a head; its box switches it off)</source>
        <translation>(klicken Sie auf einen Head; sein Kästchen schaltet ihn ab)</translation>
    </message>
    <message>
        <source>%1 · layer %2 · head %3 · %4</source>
        <translation>%1 · Schicht %2 · Head %3 · %4</translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation>Rechenweg</translation>
    </message>
    <message>
        <source>difference</source>
        <translation>Differenz</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>The sentence is long: every head's intermediate scores are not kept. The Weights and Lines tabs show this head.</source>
        <translation>Der Satz ist lang: Die Zwischen-Scores jedes Heads werden nicht aufbewahrt. Die Reiter Gewichte und Linien zeigen diesen Head.</translation>
    </message>
    <message>
        <source>Computing the other score…</source>
        <translation>Der andere Score wird berechnet…</translation>
    </message>
    <message>
        <source>Attention rollout (Abnar &amp; Zuidema 2020): residual included, layers multiplied from the bottom</source>
        <translation>Attention-Rollout (Abnar &amp; Zuidema 2020): Residualverbindung eingerechnet, Schichten von unten multipliziert</translation>
    </message>
    <message>
        <source>%1 · %2 layers × %3 heads · %4</source>
        <translation>%1 · %2 Schichten × %3 Heads · %4</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>Kein Modell</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>auto: a GPU is faster than the CPU backend</source>
        <translation>automatisch: Eine GPU ist schneller als das CPU-Backend</translation>
    </message>
    <message>
        <source>chosen: CPU</source>
        <translation>gewählt: CPU</translation>
    </message>
    <message>
        <source>chosen: Vulkan</source>
        <translation>gewählt: Vulkan</translation>
    </message>
    <message>
        <source>Computed by %1 on %2.
%3
Compute &gt; Vulkan or CPU to choose.</source>
        <translation>Berechnet von %1 auf %2.
%3
Berechnung &gt; Vulkan oder CPU zum Wählen.</translation>
    </message>
    <message>
        <source>every layer</source>
        <translation>jede Schicht</translation>
    </message>
    <message>
        <source>the prediction only</source>
        <translation>nur die Vorhersage</translation>
    </message>
    <message>
        <source>layers %1–%2</source>
        <translation>Schichten %1–%2</translation>
    </message>
    <message>
        <source>Computed in %1 (%2)</source>
        <translation>Berechnet in %1 (%2)</translation>
    </message>
    <message>
        <source>For the run with %1.</source>
        <translation>Für den Lauf mit %1.</translation>
    </message>
    <message>
        <source>no interventions</source>
        <translation>keinen Eingriffen</translation>
    </message>
    <message>
        <source>the interventions then</source>
        <translation>den damaligen Eingriffen</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>The score the Difference tab subtracts: these weights minus the weights scored this way</source>
        <translation>Der Score, den der Differenz-Tab abzieht: diese Gewichte minus die so bewerteten Gewichte</translation>
    </message>
    <message>
        <source>&amp;All heads</source>
        <translation>&amp;Alle Heads</translation>
    </message>
    <message>
        <source>Every layer and head of the model: pick a head to see it</source>
        <translation>Jede Schicht und jeder Head des Modells: einen Head wählen, um ihn zu sehen</translation>
    </message>
    <message>
        <source>Not computed: the message above says why.</source>
        <translation>Nicht berechnet: Die Meldung oben sagt, warum.</translation>
    </message>
    <message>
        <source>%1[*] · model — Attention Explorer</source>
        <translation>%1[*] · Modell — Attention Explorer</translation>
    </message>
    <message>
        <source>auto: no graphics card to use</source>
        <translation>automatisch: keine nutzbare Grafikkarte</translation>
    </message>
    <message>
        <source>chosen: Vulkan, not available here</source>
        <translation>gewählt: Vulkan, hier nicht verfügbar</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>&amp;Generieren</translation>
    </message>
    <message>
        <source>Let the model write after the sentence, token by token, with the interventions on</source>
        <translation>Das Modell nach dem Satz Token für Token weiterschreiben lassen, mit den Eingriffen</translation>
    </message>
    <message>
        <source>&amp;Download Model…</source>
        <translation>Modell &amp;herunterladen…</translation>
    </message>
    <message>
        <source>&amp;KV Cache</source>
        <translation>&amp;KV-Cache</translation>
    </message>
    <message>
        <source>What a causal model keeps of earlier tokens so that the next one costs one row per layer</source>
        <translation>Was ein kausales Modell von früheren Tokens behält, damit das nächste nur eine Zeile pro Schicht kostet</translation>
    </message>
    <message>
        <source>&amp;Translate</source>
        <translation>Ü&amp;bersetzen</translation>
    </message>
    <message>
        <source>Encoder-decoder models: translate word by word, with the encoder's, the decoder's and the cross-attention's heads</source>
        <translation>Encoder-Decoder-Modelle: Wort für Wort übersetzen, mit den Heads des Encoders, des Decoders und der Cross-Attention</translation>
    </message>
    <message>
        <source>L&amp;ogit Lens…</source>
        <translation>L&amp;ogit-Lens…</translation>
    </message>
    <message>
        <source>&amp;Activation Patching…</source>
        <translation>&amp;Aktivierungs-Patching…</translation>
    </message>
    <message>
        <source>&amp;Direct Logit Attribution…</source>
        <translation>&amp;Direkte Logit-Attribution…</translation>
    </message>
    <message>
        <source>a step of Generate: its newest token's row</source>
        <translation>ein Schritt von Generieren: die Zeile seines neuesten Tokens</translation>
    </message>
    <message>
        <source>positions %1–%2, the earlier ones from the key/value cache</source>
        <translation>Positionen %1–%2, die früheren aus dem Key/Value-Cache</translation>
    </message>
    <message>
        <source>Nothing decoded yet: translate the sentence in the Translate tab to see the decoder's heads.</source>
        <translation>Noch nichts decodiert: Übersetzen Sie den Satz im Tab Übersetzen, um die Heads des Decoders zu sehen.</translation>
    </message>
    <message>
        <source>This tab shows a decoder-only or encoder-only model's heads; the Weights and Lines tabs show this one.</source>
        <translation>Dieser Tab zeigt die Heads eines reinen Decoder- oder Encoder-Modells; die Tabs Gewichte und Linien zeigen diesen.</translation>
    </message>
    <message>
        <source>Rollout multiplies a stack's self-attention: choose the encoder's or the decoder's heads above the grid.</source>
        <translation>Rollout multipliziert die Self-Attention eines Stapels: Wählen Sie über dem Raster die Heads des Encoders oder des Decoders.</translation>
    </message>
    <message>
        <source>Encoder self-attention</source>
        <translation>Encoder-Self-Attention</translation>
    </message>
    <message>
        <source>Decoder self-attention</source>
        <translation>Decoder-Self-Attention</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>Cross-Attention</translation>
    </message>
    <message>
        <source>Kind of heads</source>
        <translation>Art der Heads</translation>
    </message>
    <message>
        <source>Which heads the grid shows: the encoder's over the source, the decoder's over the words the Translate tab wrote, or the decoder's over the source (the alignment)</source>
        <translation>Welche Heads das Raster zeigt: die des Encoders über der Quelle, die des Decoders über den Wörtern, die der Tab Übersetzen geschrieben hat, oder die des Decoders über der Quelle (die Zuordnung)</translation>
    </message>
</context>
<context>
    <name>attn::ui::OpenModelDialog</name>
    <message>
        <source>Open Model</source>
        <translation>Modell öffnen</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Familie</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>Gewichte</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Other &amp;Folder…</source>
        <translation>Anderer &amp;Ordner…</translation>
    </message>
    <message>
        <source>A Hugging Face model folder: config.json, model.safetensors and the tokenizer files</source>
        <translation>Ein Hugging-Face-Modellordner: config.json, model.safetensors und die Tokenizer-Dateien</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>Open Model Folder</source>
        <translation>Modellordner öffnen</translation>
    </message>
    <message>
        <source>No models in the Hugging Face cache (%1). Choose a model folder, or download one with huggingface-cli download (README, “Real models”).</source>
        <translation>Keine Modelle im Hugging-Face-Cache (%1). Wählen Sie einen Modellordner oder laden Sie eines mit huggingface-cli download herunter (README, „Real models“).</translation>
    </message>
    <message>
        <source>Models in the Hugging Face cache (%1):</source>
        <translation>Modelle im Hugging-Face-Cache (%1):</translation>
    </message>
    <message>
        <source>%1 layers, %2 heads, d_model %3</source>
        <translation>%1 Schichten, %2 Heads, d_model %3</translation>
    </message>
    <message>
        <source>cannot open</source>
        <translation>kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Reading the Hugging Face cache (%1)…</source>
        <translation>Der Hugging-Face-Cache (%1) wird gelesen…</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>wird gelesen…</translation>
    </message>
</context>
<context>
    <name>attn::ui::OutputTypesView</name>
    <message>
        <source>Tagging (a label a word)</source>
        <translation>Tagging (ein Label pro Wort)</translation>
    </message>
    <message>
        <source>Classification (a label a sentence)</source>
        <translation>Klassifikation (ein Label pro Satz)</translation>
    </message>
    <message>
        <source>Sequence to sequence (English → French)</source>
        <translation>Sequenz zu Sequenz (Englisch → Französisch)</translation>
    </message>
    <message>
        <source>mean of the states</source>
        <translation>Mittelwert der Zustände</translation>
    </message>
    <message>
        <source>first state</source>
        <translation>erster Zustand</translation>
    </message>
    <message>
        <source>last state</source>
        <translation>letzter Zustand</translation>
    </message>
    <message>
        <source>What the sentence classifier reads of the encoder's states. The first state of a one-directional encoder has read one word only.</source>
        <translation>Was der Satzklassifikator von den Zuständen des Encoders liest. Der erste Zustand eines Encoders mit nur einer Richtung hat nur ein Wort gelesen.</translation>
    </message>
    <message>
        <source>Minibatches of 16 sentences (32 pairs for sequence to sequence)</source>
        <translation>Minibatches aus 16 Sätzen (32 Satzpaaren bei Sequenz zu Sequenz)</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Trainieren</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>Satz</translation>
    </message>
    <message>
        <source>Words of the built-in English grammar: the, a, cat, dog, bird, boy, book, mouse, girl, house, apple, car, black, white, green, red, blue, happy, sad, ate, saw, chased, liked, found, took, and</source>
        <translation>Wörter der eingebauten englischen Grammatik: the, a, cat, dog, bird, boy, book, mouse, girl, house, apple, car, black, white, green, red, blue, happy, sad, ate, saw, chased, liked, found, took, and</translation>
    </message>
    <message>
        <source>Export Figure…</source>
        <translation>Abbildung exportieren…</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>loss (nats)</source>
        <translation>Verlust (nats)</translation>
    </message>
    <message>
        <source>held-out accuracy</source>
        <translation>Genauigkeit auf zurückgehaltenen Paaren</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Not trained yet: choose it above and press Train.</source>
        <translation>Noch nicht trainiert: oben auswählen und „Trainieren“ drücken.</translation>
    </message>
    <message>
        <source>Training stopped; the model shown is unchanged.</source>
        <translation>Training angehalten; das gezeigte Modell ist unverändert.</translation>
    </message>
    <message>
        <source>step %1 of %2 · loss %3</source>
        <translation>Schritt %1 von %2 · Verlust %3</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>Training fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>held-out words tagged right: %1%</source>
        <translation>zurückgehaltene Wörter richtig getaggt: %1%</translation>
    </message>
    <message>
        <source>held-out sentences classified right: %1%</source>
        <translation>zurückgehaltene Sätze richtig klassifiziert: %1%</translation>
    </message>
    <message>
        <source>held-out sentences translated exactly: %1%</source>
        <translation>zurückgehaltene Sätze exakt übersetzt: %1%</translation>
    </message>
    <message>
        <source>%1: the name must end in .pdf, .svg or .png.</source>
        <translation>%1: Der Name muss auf .pdf, .svg oder .png enden.</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>Nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Exported %1.</source>
        <translation>%1 exportiert.</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>Abbildung exportieren</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</source>
        <translation>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</translation>
    </message>
</context>
<context>
    <name>attn::ui::PatchingView</name>
    <message>
        <source>Write a clean and a corrupted prompt of the same length in tokens and a metric, then Run: each head's output and each position of the residual stream is copied from the clean run into the corrupted one, and the heatmaps show how much of the metric that brings back (1: all of it).</source>
        <translation>Schreiben Sie einen sauberen und einen verfälschten Prompt gleicher Länge in Tokens und eine Metrik, dann Ausführen: die Ausgabe jedes Kopfes und jede Position des Residualstroms wird aus dem sauberen Lauf in den verfälschten kopiert, und die Heatmaps zeigen, wie viel der Metrik das zurückbringt (1: alles).</translation>
    </message>
    <message>
        <source>The prompt whose activations are copied in (the sentence above until you edit it)</source>
        <translation>Der Prompt, dessen Aktivierungen hineinkopiert werden (der Satz oben, bis Sie ihn ändern)</translation>
    </message>
    <message>
        <source>The prompt patched: as many tokens as the clean one, differing where the answer should change</source>
        <translation>Der gepatchte Prompt: so viele Tokens wie der saubere, anders dort, wo sich die Antwort ändern soll</translation>
    </message>
    <message>
        <source>"A, B": the logit of A minus that of B; "A" alone: the probability of A. Each one token, with its leading space where the vocabulary has one</source>
        <translation>"A, B": das Logit von A minus das von B; "A" allein: die Wahrscheinlichkeit von A. Jeweils ein Token, mit seinem führenden Leerzeichen, wo das Vokabular eines hat</translation>
    </message>
    <message>
        <source>Clean:</source>
        <translation>Sauber:</translation>
    </message>
    <message>
        <source>Corr&amp;upted:</source>
        <translation>Verfälsc&amp;ht:</translation>
    </message>
    <message>
        <source>E&amp;xample</source>
        <translation>Bei&amp;spiel</translation>
    </message>
    <message>
        <source>Mary and John (Wang et al. 2022): who gets the drink</source>
        <translation>Mary und John (Wang et al. 2022): wer das Getränk bekommt</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Patch every head and every position, one at a time (each run recomputes from its layer up)</source>
        <translation>Jeden Kopf und jede Position einzeln patchen (jeder Lauf rechnet ab seiner Schicht neu)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop the sweep (nothing of it is shown)</source>
        <translation>Den Durchlauf abbrechen (nichts davon wird gezeigt)</translation>
    </message>
    <message>
        <source>Heads and positions</source>
        <translation>Köpfe und Positionen</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Positionen</translation>
    </message>
    <message>
        <source>Which heatmaps the tab shows (an export has both)</source>
        <translation>Welche Heatmaps der Tab zeigt (ein Export hat beide)</translation>
    </message>
    <message>
        <source>&amp;Metric:</source>
        <translation>&amp;Metrik:</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metrik</translation>
    </message>
    <message>
        <source>Patching needs a clean and a corrupted prompt.</source>
        <translation>Patching braucht einen sauberen und einen verfälschten Prompt.</translation>
    </message>
    <message>
        <source>Patching needs a metric: "A, B" (the logit difference) or "A" (its probability).</source>
        <translation>Patching braucht eine Metrik: "A, B" (die Logit-Differenz) oder "A" (seine Wahrscheinlichkeit).</translation>
    </message>
    <message>
        <source>Patching: %1</source>
        <translation>Patching: %1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Patching %1 heads and %2 positions…</source>
        <translation>%1 Köpfe und %2 Positionen werden gepatcht…</translation>
    </message>
    <message>
        <source>%1: clean %2, corrupted %3. 1 = the clean run's value restored, 0 = no change. Click a head to open it.</source>
        <translation>%1: sauber %2, verfälscht %3. 1 = der Wert des sauberen Laufs wiederhergestellt, 0 = keine Änderung. Klicken Sie auf einen Kopf, um ihn zu öffnen.</translation>
    </message>
    <message>
        <source>%p%</source>
        <translation>%p %</translation>
    </message>
    <message>
        <source>e.g. %1</source>
        <translation>z. B. %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::PositionsPage</name>
    <message>
        <source>&amp;Sinusoidal positions</source>
        <translation>&amp;Sinusförmige Positionen</translation>
    </message>
    <message>
        <source>Off: X = E, and without a causal mask the layer cannot tell the order of the words</source>
        <translation>Aus: X = E, und ohne kausale Maske kennt die Schicht die Reihenfolge der Wörter nicht</translation>
    </message>
    <message>
        <source>Switch positions on</source>
        <translation>Positionen einschalten</translation>
    </message>
    <message>
        <source>Switch positions off</source>
        <translation>Positionen ausschalten</translation>
    </message>
    <message>
        <source>The sentence reversed only reverses the weights (largest change %1): the layer cannot tell the order of the words.</source>
        <translation>Der umgedrehte Satz dreht nur die Gewichte um (größte Änderung %1): die Schicht kennt die Reihenfolge der Wörter nicht.</translation>
    </message>
    <message>
        <source>The sentence reversed changes the weights by up to %1: positions (or the causal mask) give the layer the order of the words.</source>
        <translation>Der umgedrehte Satz ändert die Gewichte um bis zu %1: Positionen (oder die kausale Maske) geben der Schicht die Reihenfolge der Wörter.</translation>
    </message>
</context>
<context>
    <name>attn::ui::PredictionsView</name>
    <message>
        <source>Predictions</source>
        <translation>Vorhersagen</translation>
    </message>
    <message>
        <source>Nothing computed yet.</source>
        <translation>Noch nichts berechnet.</translation>
    </message>
    <message>
        <source>%1: %2 %3 %</source>
        <translation>%1: %2 %3 %</translation>
    </message>
</context>
<context>
    <name>attn::ui::PresentationWindow</name>
    <message>
        <source>Previous step (Left, Page Up)</source>
        <translation>Vorheriger Schritt (Links, Bild auf)</translation>
    </message>
    <message>
        <source>Next step (Right, Space, Page Down)</source>
        <translation>Nächster Schritt (Rechts, Leertaste, Bild ab)</translation>
    </message>
    <message>
        <source>Colours for the room (T)</source>
        <translation>Farben für den Raum (T)</translation>
    </message>
    <message>
        <source>✕ Exit</source>
        <translation>✕ Beenden</translation>
    </message>
    <message>
        <source>Leave the presentation (Escape, F11)</source>
        <translation>Die Präsentation verlassen (Esc, F11)</translation>
    </message>
    <message>
        <source>Nothing to present yet.</source>
        <translation>Noch nichts zu präsentieren.</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>Presentation — Attention Explorer</source>
        <translation>Präsentation — Attention Explorer</translation>
    </message>
</context>
<context>
    <name>attn::ui::ProjectionsPage</name>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>One projection cut into heads (W^Q)</source>
        <translation>Eine Projektion, in Heads geteilt (W^Q)</translation>
    </message>
    <message>
        <source>QK and OV circuits of the head</source>
        <translation>QK- und OV-Kreise des Heads</translation>
    </message>
    <message>
        <source>Bias as a row of the weights</source>
        <translation>Bias als Zeile der Gewichte</translation>
    </message>
    <message>
        <source>Which identity of the projections to show, with both of its sides</source>
        <translation>Welche Identität der Projektionen gezeigt wird, mit beiden Seiten</translation>
    </message>
    <message>
        <source>S&amp;how:</source>
        <translation>An&amp;zeigen:</translation>
    </message>
</context>
<context>
    <name>attn::ui::RecoveryOffers</name>
    <message>
        <source>an untitled scene</source>
        <translation>eine unbenannte Szene</translation>
    </message>
    <message>
        <source>Attention Explorer did not close normally. Restore the unsaved changes to %1 from %2?</source>
        <translation>Attention Explorer wurde nicht normal beendet. Die ungespeicherten Änderungen an %1 vom %2 wiederherstellen?</translation>
    </message>
    <message>
        <source>(copies waiting after this one: %1)</source>
        <translation>(danach warten noch Kopien: %1)</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Next Copy</source>
        <translation>Nächste Kopie</translation>
    </message>
    <message>
        <source>Could not restore: %1. The copy is kept at %2.</source>
        <translation>Wiederherstellen nicht möglich: %1. Die Kopie bleibt in %2 erhalten.</translation>
    </message>
</context>
<context>
    <name>attn::ui::SceneDocument</name>
    <message>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <source>Change score to %1</source>
        <translation>Score in %1 ändern</translation>
    </message>
    <message>
        <source>Change normalization to %1</source>
        <translation>Normierung in %1 ändern</translation>
    </message>
    <message>
        <source>Change masked value to %1</source>
        <translation>Maskierten Wert in %1 ändern</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Causal mask %1</source>
        <translation>Kausale Maske %1</translation>
    </message>
    <message>
        <source>Local window off</source>
        <translation>Lokales Fenster aus</translation>
    </message>
    <message>
        <source>Local window N = %1</source>
        <translation>Lokales Fenster N = %1</translation>
    </message>
    <message>
        <source>One-sided window %1</source>
        <translation>Einseitiges Fenster %1</translation>
    </message>
    <message>
        <source>Mask padding keys %1</source>
        <translation>Padding-Keys maskieren %1</translation>
    </message>
    <message>
        <source>Clear custom mask</source>
        <translation>Eigene Maske leeren</translation>
    </message>
    <message>
        <source>Paint mask cells</source>
        <translation>Maskenzellen malen</translation>
    </message>
    <message>
        <source>Change embedding to %1</source>
        <translation>Einbettung in %1 ändern</translation>
    </message>
    <message>
        <source>Change positions to %1</source>
        <translation>Positionen in %1 ändern</translation>
    </message>
    <message>
        <source>Change heads to %1</source>
        <translation>Heads auf %1 ändern</translation>
    </message>
    <message>
        <source>Change d_model to %1</source>
        <translation>d_model auf %1 ändern</translation>
    </message>
    <message>
        <source>Change d_k to %1</source>
        <translation>d_k auf %1 ändern</translation>
    </message>
    <message>
        <source>Change d_v to %1</source>
        <translation>d_v auf %1 ändern</translation>
    </message>
    <message>
        <source>Change seed to %1</source>
        <translation>Startwert auf %1 ändern</translation>
    </message>
    <message>
        <source>One attention layer</source>
        <translation>Eine Attention-Schicht</translation>
    </message>
    <message>
        <source>Stacked blocks: %1</source>
        <translation>Gestapelte Blöcke: %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::SceneFiles</name>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Could not open %1. The scene you have open is unchanged.
%2</source>
        <translation>%1 konnte nicht geöffnet werden. Die geöffnete Szene ist unverändert.
%2</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Konnte nicht speichern: %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Save Scene As</source>
        <translation>Szene speichern unter</translation>
    </message>
    <message>
        <source>No examples in this build</source>
        <translation>Keine Beispiele in diesem Build</translation>
    </message>
</context>
<context>
    <name>attn::ui::Seq2SeqPresentationWindow</name>
    <message>
        <source>Sequence to Sequence — Presentation</source>
        <translation>Sequence to Sequence — Präsentation</translation>
    </message>
</context>
<context>
    <name>attn::ui::Seq2SeqWindow</name>
    <message>
        <source>Sequence to Sequence — Attention Explorer</source>
        <translation>Sequenz zu Sequenz — Attention Explorer</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Model Folder…</source>
        <translation>Modellordner ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Save Model Folder…</source>
        <translation>Modellordner &amp;speichern…</translation>
    </message>
    <message>
        <source>There is no model to save: open one or train one first.</source>
        <translation>Es gibt kein Modell zum Speichern: Öffnen oder trainieren Sie zuerst eines.</translation>
    </message>
    <message>
        <source>Save Model Into Folder</source>
        <translation>Modell in Ordner speichern</translation>
    </message>
    <message>
        <source>Saved the model in %1.</source>
        <translation>Modell in %1 gespeichert.</translation>
    </message>
    <message>
        <source>The model was not saved: %1</source>
        <translation>Das Modell wurde nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>&amp;Export Figure…</source>
        <translation>Abbildung &amp;exportieren…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>S&amp;chließen</translation>
    </message>
    <message>
        <source>No model yet</source>
        <translation>Noch kein Modell</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>Ordner öffnen…</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>A sentence in the model's source language</source>
        <translation>Ein Satz in der Quellsprache des Modells</translation>
    </message>
    <message>
        <source>beam width</source>
        <translation>Strahlbreite</translation>
    </message>
    <message>
        <source>1 is greedy decoding: the likeliest word at each step. Wider beams keep that many partial translations and choose by the mean log-probability per word.</source>
        <translation>1 ist gierige Dekodierung: in jedem Schritt das wahrscheinlichste Wort. Breitere Strahlen behalten so viele Teilübersetzungen und wählen nach der mittleren Log-Wahrscheinlichkeit je Wort.</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>Übersetzen</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ Zurück</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>Schritt ▶</translation>
    </message>
    <message>
        <source>All Steps</source>
        <translation>Alle Schritte</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Übersetzung</translation>
    </message>
    <message>
        <source>Alignment</source>
        <translation>Ausrichtung</translation>
    </message>
    <message>
        <source>Hidden States</source>
        <translation>Verborgene Zustände</translation>
    </message>
    <message>
        <source>Train on</source>
        <translation>Trainieren auf</translation>
    </message>
    <message>
        <source>dates (27 nov 2026 → 2026-11-27)</source>
        <translation>Daten (27 nov 2026 → 2026-11-27)</translation>
    </message>
    <message>
        <source>reverse (a b c → c b a)</source>
        <translation>umkehren (a b c → c b a)</translation>
    </message>
    <message>
        <source>sort (c a b → a b c)</source>
        <translation>sortieren (c a b → a b c)</translation>
    </message>
    <message>
        <source>copy (a b c → a b c)</source>
        <translation>kopieren (a b c → a b c)</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Minibatches of 32 sentence pairs</source>
        <translation>Minibatches aus 32 Satzpaaren</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Trainieren</translation>
    </message>
    <message>
        <source>Training stopped; the model shown is unchanged.</source>
        <translation>Training angehalten; das gezeigte Modell ist unverändert.</translation>
    </message>
    <message>
        <source>held-out exact match</source>
        <translation>exakte Treffer (zurückgehalten)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>loss per word (nats)</source>
        <translation>Verlust je Wort (Nats)</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Next word: the likeliest five</source>
        <translation>Nächstes Wort: die fünf wahrscheinlichsten</translation>
    </message>
    <message>
        <source>word</source>
        <translation>Wort</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <source>Not enough memory to read the model in %1.</source>
        <translation>Nicht genug Speicher, um das Modell in %1 zu lesen.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Open Sequence-to-Sequence Model</source>
        <translation>Sequenz-zu-Sequenz-Modell öffnen</translation>
    </message>
    <message>
        <source>additive (Bahdanau) attention</source>
        <translation>additive (Bahdanau-)Attention</translation>
    </message>
    <message>
        <source>no attention</source>
        <translation>ohne Attention</translation>
    </message>
    <message>
        <source>Open a model folder or train one on a task first.</source>
        <translation>Öffnen Sie zuerst einen Modellordner oder trainieren Sie ein Modell auf einer Aufgabe.</translation>
    </message>
    <message>
        <source>step %1 of %2</source>
        <translation>Schritt %1 von %2</translation>
    </message>
    <message>
        <source>Type a source sentence and press Enter.</source>
        <translation>Geben Sie einen Quellsatz ein und drücken Sie die Eingabetaste.</translation>
    </message>
    <message>
        <source>Open a model folder, or train one in the Training tab: the dates task learns in a few seconds.</source>
        <translation>Öffnen Sie einen Modellordner oder trainieren Sie eines im Reiter Training: Die Datumsaufgabe lernt in wenigen Sekunden.</translation>
    </message>
    <message>
        <source>This model has no attention: its decoder sees only the encoder's last state, the fixed-size summary attention frees it from.</source>
        <translation>Dieses Modell hat keine Attention: Sein Decoder sieht nur den letzten Zustand des Encoders, die Zusammenfassung fester Größe, von der Attention ihn befreit.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1.&lt;/b&gt; The decoder reads %2 and its state s&lt;sub&gt;%3&lt;/sub&gt;.</source>
        <translation>&lt;b&gt;Schritt %1.&lt;/b&gt; Der Decoder liest %2 und seinen Zustand s&lt;sub&gt;%3&lt;/sub&gt;.</translation>
    </message>
    <message>
        <source>Scores e</source>
        <translation>Scores e</translation>
    </message>
    <message>
        <source>source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>score</source>
        <translation>Score</translation>
    </message>
    <message>
        <source>Weights α</source>
        <translation>Gewichte α</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source> Without attention it has no scores: s&lt;sub&gt;%1&lt;/sub&gt; = GRU(relu(embedding), s&lt;sub&gt;%2&lt;/sub&gt;).</source>
        <translation> Ohne Attention gibt es keine Scores: s&lt;sub&gt;%1&lt;/sub&gt; = GRU(relu(Embedding), s&lt;sub&gt;%2&lt;/sub&gt;).</translation>
    </message>
    <message>
        <source>No attention: nothing is scored.</source>
        <translation>Keine Attention: Nichts wird bewertet.</translation>
    </message>
    <message>
        <source> Next word: %1 with p = %2.</source>
        <translation> Nächstes Wort: %1 mit p = %2.</translation>
    </message>
    <message>
        <source>There is no built-in task “%1”.</source>
        <translation>Es gibt keine eingebaute Aufgabe „%1“.</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>step %1 of %2 · loss %3</source>
        <translation>Schritt %1 von %2 · Verlust %3</translation>
    </message>
    <message>
        <source>%1 (trained here)</source>
        <translation>%1 (hier trainiert)</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>Training fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Translate a sentence first: the figure shows its decoding.</source>
        <translation>Übersetzen Sie zuerst einen Satz: Die Abbildung zeigt seine Dekodierung.</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>Abbildung exportieren</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</source>
        <translation>PDF (*.pdf);;SVG (*.svg);;PNG (*.png)</translation>
    </message>
    <message>
        <source>%1: the name must end in .pdf, .svg or .png.</source>
        <translation>%1: Der Name muss auf .pdf, .svg oder .png enden.</translation>
    </message>
    <message>
        <source>Exported %1.</source>
        <translation>%1 exportiert.</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>Nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Luong's dot attention</source>
        <translation>Luongs Dot-Attention</translation>
    </message>
    <message>
        <source>Luong's general attention</source>
        <translation>Luongs General-Attention</translation>
    </message>
    <message>
        <source>Luong's concat attention</source>
        <translation>Luongs Concat-Attention</translation>
    </message>
    <message>
        <source>hard (argmax) attention</source>
        <translation>harte (Argmax-)Attention</translation>
    </message>
    <message>
        <source>English → French (the black cat → le chat noir)</source>
        <translation>Englisch → Französisch (the black cat → le chat noir)</translation>
    </message>
    <message>
        <source>The decoder's attention. A model trained here with each is kept: choosing one shows its translation and alignment.</source>
        <translation>Die Attention des Decoders. Ein hier mit jeder trainiertes Modell bleibt erhalten: die Wahl zeigt seine Übersetzung und Zuordnung.</translation>
    </message>
    <message>
        <source>source length (tokens)</source>
        <translation>Quelllänge (Tokens)</translation>
    </message>
    <message>
        <source>%1, layers: %2, bidirectional encoder</source>
        <translation>%1, Schichten: %2, bidirektionaler Encoder</translation>
    </message>
    <message>
        <source>%1, layers: %2</source>
        <translation>%1, Schichten: %2</translation>
    </message>
    <message>
        <source>%1 · %2, H = %3 · %4</source>
        <translation>%1 · %2, H = %3 · %4</translation>
    </message>
    <message>
        <source> Scores e&lt;sub&gt;j&lt;/sub&gt; = v&lt;sub&gt;a&lt;/sub&gt;&lt;sup&gt;T&lt;/sup&gt; tanh(W&lt;sub&gt;a&lt;/sub&gt; s&lt;sub&gt;%1&lt;/sub&gt; + U&lt;sub&gt;a&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;); hard attention puts all the weight on the highest, %2. Context c&lt;sub&gt;%3&lt;/sub&gt; = that h&lt;sub&gt;j&lt;/sub&gt;; s&lt;sub&gt;%3&lt;/sub&gt; = %4([embedding; c&lt;sub&gt;%3&lt;/sub&gt;], s&lt;sub&gt;%1&lt;/sub&gt;).</source>
        <translation> Scores e&lt;sub&gt;j&lt;/sub&gt; = v&lt;sub&gt;a&lt;/sub&gt;&lt;sup&gt;T&lt;/sup&gt; tanh(W&lt;sub&gt;a&lt;/sub&gt; s&lt;sub&gt;%1&lt;/sub&gt; + U&lt;sub&gt;a&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;); harte Attention legt das ganze Gewicht auf den höchsten, %2. Kontext c&lt;sub&gt;%3&lt;/sub&gt; = dieses h&lt;sub&gt;j&lt;/sub&gt;; s&lt;sub&gt;%3&lt;/sub&gt; = %4([Embedding; c&lt;sub&gt;%3&lt;/sub&gt;], s&lt;sub&gt;%1&lt;/sub&gt;).</translation>
    </message>
    <message>
        <source> s&lt;sub&gt;%1&lt;/sub&gt; = %2(embedding, s&lt;sub&gt;%3&lt;/sub&gt;). Scores e&lt;sub&gt;j&lt;/sub&gt; = %4 (Luong); weights α = softmax(e): %5 on %6. Context c&lt;sub&gt;%1&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; α&lt;sub&gt;j&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;; the next word comes from h̃&lt;sub&gt;%1&lt;/sub&gt; = tanh(W&lt;sub&gt;c&lt;/sub&gt; [c&lt;sub&gt;%1&lt;/sub&gt;; s&lt;sub&gt;%1&lt;/sub&gt;]).</source>
        <translation> s&lt;sub&gt;%1&lt;/sub&gt; = %2(Embedding, s&lt;sub&gt;%3&lt;/sub&gt;). Scores e&lt;sub&gt;j&lt;/sub&gt; = %4 (Luong); Gewichte α = softmax(e): %5 auf %6. Kontext c&lt;sub&gt;%1&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; α&lt;sub&gt;j&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;; das nächste Wort kommt aus h̃&lt;sub&gt;%1&lt;/sub&gt; = tanh(W&lt;sub&gt;c&lt;/sub&gt; [c&lt;sub&gt;%1&lt;/sub&gt;; s&lt;sub&gt;%1&lt;/sub&gt;]).</translation>
    </message>
    <message>
        <source> Scores e&lt;sub&gt;j&lt;/sub&gt; = v&lt;sub&gt;a&lt;/sub&gt;&lt;sup&gt;T&lt;/sup&gt; tanh(W&lt;sub&gt;a&lt;/sub&gt; s&lt;sub&gt;%1&lt;/sub&gt; + U&lt;sub&gt;a&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;); weights α = softmax(e): %2 on %3. Context c&lt;sub&gt;%4&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; α&lt;sub&gt;j&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;; s&lt;sub&gt;%4&lt;/sub&gt; = %5([embedding; c&lt;sub&gt;%4&lt;/sub&gt;], s&lt;sub&gt;%1&lt;/sub&gt;).</source>
        <translation> Scores e&lt;sub&gt;j&lt;/sub&gt; = v&lt;sub&gt;a&lt;/sub&gt;&lt;sup&gt;T&lt;/sup&gt; tanh(W&lt;sub&gt;a&lt;/sub&gt; s&lt;sub&gt;%1&lt;/sub&gt; + U&lt;sub&gt;a&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;); Gewichte α = softmax(e): %2 auf %3. Kontext c&lt;sub&gt;%4&lt;/sub&gt; = Σ&lt;sub&gt;j&lt;/sub&gt; α&lt;sub&gt;j&lt;/sub&gt; h&lt;sub&gt;j&lt;/sub&gt;; s&lt;sub&gt;%4&lt;/sub&gt; = %5([Embedding; c&lt;sub&gt;%4&lt;/sub&gt;], s&lt;sub&gt;%1&lt;/sub&gt;).</translation>
    </message>
    <message>
        <source>&amp;Present…</source>
        <translation>&amp;Präsentieren…</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>Output Types</source>
        <translation>Ausgabetypen</translation>
    </message>
    <message>
        <source>Translate a sentence first: the slides show its decoding.</source>
        <translation>Übersetzen Sie zuerst einen Satz: Die Folien zeigen seine Dekodierung.</translation>
    </message>
    <message>
        <source>cell</source>
        <translation>Zelle</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>bidirectional encoder</source>
        <translation>bidirektionaler Encoder</translation>
    </message>
    <message>
        <source>The encoder reads the sentence both ways; each source word's state is [forward; backward] (Bahdanau et al. 2015, section 3.2).</source>
        <translation>Der Encoder liest den Satz in beide Richtungen; der Zustand jedes Quellworts ist [vorwärts; rückwärts] (Bahdanau et al. 2015, Abschnitt 3.2).</translation>
    </message>
    <message>
        <source>and without attention</source>
        <translation>und ohne Attention</translation>
    </message>
    <message>
        <source>Trains a second model of the same variant without attention on the same pairs, and plots both by sentence length.</source>
        <translation>Trainiert ein zweites Modell derselben Variante ohne Attention auf denselben Paaren und zeichnet beide nach Satzlänge.</translation>
    </message>
    <message>
        <source>held-out accuracy</source>
        <translation>Genauigkeit auf zurückgehaltenen Paaren</translation>
    </message>
    <message>
        <source>%1, words right</source>
        <translation>%1, Wörter richtig</translation>
    </message>
    <message>
        <source>Dot attention needs the encoder's states as wide as the decoder's; a bidirectional encoder's are twice as wide. Choose general attention.</source>
        <translation>Dot-Attention braucht Encoder-Zustände so breit wie die des Decoders; die eines bidirektionalen Encoders sind doppelt so breit. Wählen Sie General-Attention.</translation>
    </message>
    <message>
        <source>loss per word, %1</source>
        <translation>Verlust pro Wort, %1</translation>
    </message>
    <message>
        <source>held-out exact match, %1</source>
        <translation>exakte Treffer (zurückgehalten), %1</translation>
    </message>
    <message>
        <source>%1: %2%</source>
        <translation>%1: %2 %</translation>
    </message>
    <message>
        <source>held-out exact match · %1</source>
        <translation>exakte Treffer (zurückgehalten) · %1</translation>
    </message>
    <message>
        <source>Train %1</source>
        <translation>%1 trainieren</translation>
    </message>
</context>
<context>
    <name>attn::ui::StaleIndicator</name>
    <message>
        <source>Not current: the figures show an earlier input, “%1”; the input as it is now cannot be computed (the message above says why).</source>
        <translation>Nicht aktuell: Die Abbildungen zeigen eine frühere Eingabe, „%1“; die jetzige Eingabe kann nicht berechnet werden (die Meldung oben sagt, warum).</translation>
    </message>
</context>
<context>
    <name>attn::ui::TokenChips</name>
    <message>
        <source>Token %1: “%2”</source>
        <translation>Token %1: „%2“</translation>
    </message>
    <message>
        <source>characters %1–%2 of the text</source>
        <translation>Zeichen %1–%2 des Textes</translation>
    </message>
    <message>
        <source>added by the tokenizer</source>
        <translation>vom Tokenizer hinzugefügt</translation>
    </message>
    <message>
        <source>special token</source>
        <translation>Sondertoken</translation>
    </message>
    <message>
        <source>no word vector: a hashed vector stands in</source>
        <translation>kein Wortvektor: Ein gehashter Vektor steht dafür</translation>
    </message>
    <message>
        <source>&lt;b&gt;padding&lt;/b&gt; (masked as a key) · click to unmark</source>
        <translation>&lt;b&gt;Padding&lt;/b&gt; (als Key maskiert) · klicken, um die Markierung aufzuheben</translation>
    </message>
    <message>
        <source>click to mark as padding</source>
        <translation>klicken, um als Padding zu markieren</translation>
    </message>
    <message>
        <source>No tokens</source>
        <translation>Keine Tokens</translation>
    </message>
</context>
<context>
    <name>attn::ui::TokenFocusBar</name>
    <message>
        <source>Query token in focus</source>
        <translation>Query-Token im Fokus</translation>
    </message>
    <message>
        <source>Token %1 (id %2): show what it attends to in every head</source>
        <translation>Token %1 (ID %2): zeigen, worauf es in jedem Head achtet</translation>
    </message>
</context>
<context>
    <name>attn::ui::TrainPage</name>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Lernrate</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Start</translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation>Sc&amp;hritt</translation>
    </message>
    <message>
        <source>R&amp;eset</source>
        <translation>Zu&amp;rücksetzen</translation>
    </message>
    <message>
        <source>&amp;Apply to scene</source>
        <translation>&amp;In die Szene übernehmen</translation>
    </message>
    <message>
        <source>Put the trained weights into the scene (one undo step): every view shows them, and they save with the scene</source>
        <translation>Die trainierten Gewichte in die Szene übernehmen (ein Rückgängig-Schritt): jede Ansicht zeigt sie, und sie werden mit der Szene gespeichert</translation>
    </message>
    <message>
        <source>T&amp;ask:</source>
        <translation>&amp;Aufgabe:</translation>
    </message>
    <message>
        <source>&amp;Learning rate:</source>
        <translation>&amp;Lernrate:</translation>
    </message>
    <message>
        <source>Ste&amp;ps:</source>
        <translation>Schr&amp;itte:</translation>
    </message>
    <message>
        <source>Apply trained weights (%1)</source>
        <translation>Trainierte Gewichte übernehmen (%1)</translation>
    </message>
    <message>
        <source>Apply trained weights</source>
        <translation>Trainierte Gewichte übernehmen</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <source>Press Run to train W_q, W_k, W_v and W_O on the %1 task from fresh weights: %2</source>
        <translation>Auf Start drücken, um W_q, W_k, W_v und W_O von frischen Gewichten aus für die Aufgabe %1 zu trainieren: %2</translation>
    </message>
    <message>
        <source>Gradient of hard attention</source>
        <translation>Gradient der harten Attention</translation>
    </message>
    <message>
        <source>zero (the true gradient)</source>
        <translation>null (der wahre Gradient)</translation>
    </message>
    <message>
        <source>straight-through</source>
        <translation>Straight-Through</translation>
    </message>
    <message>
        <source>softmax-relaxed</source>
        <translation>mit Softmax gelockert</translation>
    </message>
    <message>
        <source>Zero: argmax has no gradient, so the scores never learn. Straight-through: the forward pass stays hard, the backward pass is softmax's. Relaxed: softmax throughout training.</source>
        <translation>Null: Argmax hat keinen Gradienten, also lernen die Scores nie. Straight-Through: vorwärts bleibt es hart, rückwärts wirkt Softmax. Gelockert: Softmax während des ganzen Trainings.</translation>
    </message>
    <message>
        <source>&amp;Hard attention's gradient:</source>
        <translation>Gradient der &amp;harten Attention:</translation>
    </message>
    <message>
        <source>What the layer is trained to do; each task's tooltip in the list says more</source>
        <translation>Wozu die Schicht trainiert wird; der Tooltip jeder Aufgabe in der Liste sagt mehr</translation>
    </message>
    <message>
        <source>Adam's step size</source>
        <translation>Die Schrittweite von Adam</translation>
    </message>
    <message>
        <source>How many steps Run takes</source>
        <translation>Wie viele Schritte „Start“ macht</translation>
    </message>
    <message>
        <source>Train for the steps set, shown as they go; press again to pause</source>
        <translation>Die eingestellten Schritte trainieren, laufend angezeigt; erneut drücken pausiert</translation>
    </message>
    <message>
        <source>One training step</source>
        <translation>Ein Trainingsschritt</translation>
    </message>
    <message>
        <source>Back to the scene's weights, before any training</source>
        <translation>Zurück zu den Gewichten der Szene vor dem Training</translation>
    </message>
    <message>
        <source>Every block's weights train, from fresh ones, so that the last block's heads attend to the word after the earlier occurrence of their own word (an induction head), on random sequences of the sentence's words; one attention layer cannot learn this.</source>
        <translation>Die Gewichte aller Blöcke werden von neuen aus trainiert, sodass die Heads des letzten Blocks auf das Wort nach dem früheren Vorkommen ihres eigenen Wortes achten (ein Induction-Head), auf zufälligen Folgen der Wörter des Satzes; eine einzelne Attention-Schicht kann das nicht lernen.</translation>
    </message>
    <message>
        <source>Press Run to train every block of the stacked scene from fresh weights on the induction task: a repeated word attends to the word after its earlier occurrence, which one attention layer cannot learn.</source>
        <translation>Drücken Sie Start, um jeden Block der gestapelten Szene von neuen Gewichten aus auf die Induktionsaufgabe zu trainieren: ein wiederholtes Wort achtet auf das Wort nach seinem früheren Vorkommen, was eine einzelne Attention-Schicht nicht lernen kann.</translation>
    </message>
</context>
<context>
    <name>attn::ui::ViewBar</name>
    <message>
        <source>The head the figures show, or the mean of the heads that are on</source>
        <translation>Der Head, den die Abbildungen zeigen, oder das Mittel der eingeschalteten Heads</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>&amp;Zeigen:</translation>
    </message>
    <message>
        <source>The heatmap's colours; viridis and cividis also read in grey and for colour-blind viewers</source>
        <translation>Die Farben der Heatmap; viridis und cividis sind auch in Grau und bei Farbsehschwäche lesbar</translation>
    </message>
    <message>
        <source>grey (for print)</source>
        <translation>grau (für den Druck)</translation>
    </message>
    <message>
        <source>&amp;Colours:</source>
        <translation>&amp;Farben:</translation>
    </message>
    <message>
        <source>&amp;Numbers in cells</source>
        <translation>Z&amp;ahlen in Zellen</translation>
    </message>
    <message>
        <source>Each cell's value written in it, where the cell is large enough</source>
        <translation>Der Wert jeder Zelle in die Zelle geschrieben, wo sie groß genug ist</translation>
    </message>
    <message>
        <source>Colours to the &amp;data</source>
        <translation>Farben nach den Da&amp;ten</translation>
    </message>
    <message>
        <source>Off: weights are coloured on one fixed scale, 0 to 1, so figures and heads compare. On: from 0 to the largest weight shown. The colour bar says which.</source>
        <translation>Aus: Die Gewichte werden auf einer festen Skala von 0 bis 1 eingefärbt, sodass Abbildungen und Heads vergleichbar sind. An: von 0 bis zum größten gezeigten Gewicht. Die Farbskala sagt, welche gilt.</translation>
    </message>
    <message>
        <source>&amp;Queries in columns</source>
        <translation>&amp;Queries in Spalten</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Show the whole matrix (Ctrl+0). Zoom with the wheel, drag to pan.</source>
        <translation>Die ganze Matrix zeigen (Strg+0). Mit dem Mausrad zoomen, zum Verschieben ziehen.</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>Mean of heads</source>
        <translation>Mittel der Heads</translation>
    </message>
    <message>
        <source>All heads</source>
        <translation>Alle Heads</translation>
    </message>
    <message>
        <source>Draw the weights transposed, A = Kᵀ Q, as texts that keep vectors in columns write them: each column is one query and sums to 1.</source>
        <translation>Die Gewichte transponiert zeichnen, A = Kᵀ Q, wie Texte mit Vektoren in Spalten sie schreiben: Jede Spalte ist eine Query und summiert sich zu 1.</translation>
    </message>
    <message>
        <source>The stacked block whose heads the figures show. Each block is attention, then a feed-forward layer, each added to its input and layer-normalised after (post-norm, as in Vaswani et al. 2017); its output is the next block's input.</source>
        <translation>Der gestapelte Block, dessen Heads die Abbildungen zeigen. Jeder Block ist Attention, dann eine Feed-Forward-Schicht, jede zu ihrer Eingabe addiert und danach schichtnormalisiert (Post-Norm, wie bei Vaswani et al. 2017); seine Ausgabe ist die Eingabe des nächsten Blocks.</translation>
    </message>
    <message>
        <source>La&amp;yer:</source>
        <translation>Sc&amp;hicht:</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>Schicht %1</translation>
    </message>
</context>
<context>
    <name>attn::ui::WeightsPanel</name>
    <message>
        <source>w (additive)</source>
        <translation>w (additiv)</translation>
    </message>
    <message>
        <source>M (bilinear)</source>
        <translation>M (bilinear)</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>Einbettungen</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Positionen</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Head %1</translation>
    </message>
    <message>
        <source>Import %1 into %2</source>
        <translation>%1 in %2 importieren</translation>
    </message>
    <message>
        <source>The projection matrix shown and edited below</source>
        <translation>Die unten gezeigte und bearbeitbare Projektionsmatrix</translation>
    </message>
    <message>
        <source>The head whose matrix is shown and edited below</source>
        <translation>Der Head, dessen Matrix unten gezeigt und bearbeitet wird</translation>
    </message>
    <message>
        <source>The stacked block whose matrix is shown and edited below</source>
        <translation>Der gestapelte Block, dessen Matrix unten gezeigt und bearbeitet wird</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
</context>
</TS>
