package ht.platform.kyc.provider;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * The impostor cohort of the face score: both descriptors of faces of consenting people who are not the customer
 * (the Face Research Lab London Set, kyc-service/eval/README.md), computed once by kyc-service/eval and shipped as a
 * resource. How far a face lies from its nearest cohort faces says how "generic" it looks to each descriptor; the score
 * measures a pair against that (adaptive score normalisation) instead of against one bound for every face.
 */
public final class FaceCohort {

    /** One cohort face: who (faces of one person share it) and its two descriptors. */
    public record Member(int person, float[] descriptor, float[] embedding) { }

    /** The mean and standard deviation of a face's distances to its nearest cohort faces, per descriptor. */
    public record Spread(double descriptorMean, double descriptorSd, double embeddingMean, double embeddingSd) { }

    public static final String RESOURCE = "/faces/cohort.bin";
    private static final int MAGIC = 0x4b594346; // "KYCF"

    private final List<Member> members;

    public FaceCohort(List<Member> members) {
        this.members = List.copyOf(members);
    }

    public static FaceCohort bundled() {
        try (InputStream in = FaceCohort.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the face cohort " + RESOURCE + " is missing from the build");
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int size() {
        return members.size();
    }

    /** The face's ResNet-34 distance to each cohort face, in the cohort's order. */
    public double[] descriptorDistances(FaceMatcher.Face face) {
        return members.stream().mapToDouble(m -> FaceMatcher.Face.euclidean(face.descriptor(), m.descriptor())).toArray();
    }

    /**
     * The spread of a face's distances to its {@code nearest} closest cohort faces, leaving out the members excluded
     * (by their place in the cohort); {@code descriptorDistances} are the face's, as {@link #descriptorDistances} gives.
     */
    public Spread spread(FaceMatcher.Face face, double[] descriptorDistances, int nearest, BiPredicate<Integer, Member> excluded) {
        List<double[]> distances = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            if (!excluded.test(i, m)) {
                distances.add(new double[] {descriptorDistances[i], FaceMatcher.Face.euclidean(face.embedding(), m.embedding())});
            }
        }
        double[] d = nearestOf(distances, 0, nearest);
        double[] e = nearestOf(distances, 1, nearest);
        return new Spread(mean(d), sd(d), mean(e), sd(e));
    }

    private static double[] nearestOf(List<double[]> distances, int which, int nearest) {
        double[] all = distances.stream().mapToDouble(x -> x[which]).sorted().toArray();
        return Arrays.copyOf(all, Math.min(nearest, all.length));
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElseThrow();
    }

    private static double sd(double[] v) {
        double m = mean(v);
        return Math.sqrt(Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / v.length);
    }

    public void write(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(MAGIC);
        data.writeInt(members.size());
        for (Member m : members) {
            data.writeInt(m.person());
            floats(data, m.descriptor());
            floats(data, m.embedding());
        }
        data.flush();
    }

    static FaceCohort read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        if (data.readInt() != MAGIC) {
            throw new IOException("not a face cohort");
        }
        int count = data.readInt();
        List<Member> members = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            members.add(new Member(data.readInt(), floats(data), floats(data)));
        }
        return new FaceCohort(members);
    }

    private static void floats(DataOutputStream data, float[] values) throws IOException {
        data.writeInt(values.length);
        for (float v : values) {
            data.writeFloat(v);
        }
    }

    private static float[] floats(DataInputStream data) throws IOException {
        float[] values = new float[data.readInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = data.readFloat();
        }
        return values;
    }
}
