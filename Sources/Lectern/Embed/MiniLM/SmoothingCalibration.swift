/// The text `minilm-int8` runs in float32 once, when its weights are first quantized, to find
/// each product input's largest value per channel (SmoothQuant's calibration, see
/// `SmoothedWeights`). What matters is that it is ordinary English prose of the kinds a library
/// holds, in sentences of ordinary lengths: the channels that carry large values are a property
/// of the model, not of the text, so a few hundred tokens find them (bench/int8_error.py
/// --smooth compares this text with 64 real passages). Written for Lectern; it is not taken from
/// the eval set or the shared corpus.
enum SmoothingCalibration {
    static let texts: [String] = [
        """
        Photosynthesis turns light into chemical energy. In the chloroplasts of a leaf, pigments \
        absorb red and blue light, water is split, and oxygen is released; the energy captured \
        drives the Calvin cycle, which fixes carbon dioxide into sugars that the plant uses to grow.
        """,
        """
        A derivative measures how fast a function changes. If f(x) = x² + 3x, then f'(x) = 2x + 3, \
        so at x = 2 the slope of the tangent line is 7. The integral reverses the process: the area \
        under a curve between two points is the difference of an antiderivative at those points.
        """,
        """
        The French Revolution began in 1789, when the Estates-General met at Versailles during a \
        financial crisis. Within months the Bastille had fallen, feudal privileges were abolished, \
        and the Declaration of the Rights of Man proclaimed that all citizens are equal before the law.
        """,
        """
        In this lecture we look at how a hash table stores keys. Each key is hashed to an index in \
        an array; when two keys collide, we can chain them in a list or probe for the next free slot. \
        With a good hash function and a load factor below one half, lookups take constant time on average.
        """,
        """
        Supply and demand set the price of a good in a competitive market. When demand rises and \
        supply stays the same, the price goes up until buyers and sellers agree again. Economists \
        call the point where the two curves cross the equilibrium.
        """,
        """
        Newton's second law says that force equals mass times acceleration. A 2 kg cart pushed with \
        a net force of 10 N speeds up at 5 m/s². Friction, gravity and the normal force must all be \
        drawn in a free-body diagram before the equation can be solved.
        """,
        """
        OK, so let's get started. Last time we talked about the cell membrane, and today I want to \
        talk about how proteins get across it. Remember, the membrane is a lipid bilayer, so anything \
        charged has a hard time going through on its own.
        """,
        """
        Chapter 3 Review Questions. 1. What is the function of the mitochondria? 2. Explain the \
        difference between mitosis and meiosis. 3. Why do enzymes speed up reactions without being \
        used up? Key terms: ATP, enzyme, substrate, active site, activation energy.
        """,
    ]
}
