// The sources the registry's entries cite (MatcherInfo::reference), each as
// authors, title, venue or kind, year; an entry adds its section or
// algorithm. docs/REFERENCES.md lists them in full, with what each entry
// takes from them (tests/matchers/test_registry.cpp checks it names every
// entry's reference).
#pragma once
#include <string>

namespace matchblas::references {

inline const std::string hovland =
    "N. H. Hovland, Maximum weighted matching on a GPU, Master's thesis, University of Bergen, 2020";
inline const std::string naim_hipc =
    "M. Naim, F. Manne, M. Halappanavar, A. Tumeo, J. Langguth, Optimizing approximate weighted matching on "
    "Nvidia Kepler K40, HiPC 2015";
inline const std::string naim_b_matching =
    "M. Naim, F. Manne, Scalable b-matching on GPUs, in M. Naim, Parallel Matching and Clustering Algorithms on "
    "GPUs, PhD thesis, University of Bergen, 2017";
inline const std::string khan_b_suitor =
    "A. Khan, A. Pothen, M. M. A. Patwary, N. R. Satish, N. Sundaram, F. Manne, M. Halappanavar, P. Dubey, "
    "Efficient approximation algorithms for weighted b-matching, SIAM Journal on Scientific Computing 38(5), 2016";
inline const std::string manne_marriage =
    "F. Manne, M. Naim, H. Lerring, M. Halappanavar, On stable marriages and greedy matching, SIAM Workshop on "
    "Combinatorial Scientific Computing (CSC) 2016";
inline const std::string thorsen_merkey =
    "A. Thorsen, P. Merkey, Approximating weighted matchings using the partitioned global address space model, "
    "Tech. Report CS-TR-10-02, Michigan Technological University, 2010";
inline const std::string luby_1985 =
    "M. Luby, A simple parallel algorithm for the maximal independent set problem, STOC 1985";
inline const std::string handshake_project =
    "Parallel graph matching, a course project on handshaking matching on GPUs (no author named)";
inline const std::string mazankiewicz =
    "A. Mazankiewicz, Approximated maximum weighted matching in weighted complete undirected graphs, course "
    "assignment";
inline const std::string manne_halappanavar =
    "F. Manne, M. Halappanavar, New effective multithreaded matching algorithms, IPDPS 2014";
inline const std::string drake_hougardy =
    "D. E. Drake, S. Hougardy, A simple approximation algorithm for the weighted matching problem, Information "
    "Processing Letters 85(4), 2003";
inline const std::string maue_sanders =
    "J. Maue, P. Sanders, Engineering algorithms for approximate weighted matching, WEA 2007, LNCS 4525";
inline const std::string pettie_sanders =
    "S. Pettie, P. Sanders, A simpler linear time 2/3 - epsilon approximation for maximum weight matching, "
    "Information Processing Letters 91(6), 2004";
inline const std::string lin_kernighan =
    "S. Lin, B. W. Kernighan, An effective heuristic algorithm for the traveling-salesman problem, "
    "Operations Research 21(2), 1973 (the positive-gain rule)";
inline const std::string edmonds =
    "J. Edmonds, Paths, trees, and flowers, Canadian Journal of Mathematics 17, 1965 (LEMON 1.3's "
    "MaxWeightedMatching)";
inline const std::string bertsekas =
    "D. P. Bertsekas, The auction algorithm: a distributed relaxation method for the assignment problem, Annals "
    "of Operations Research 14, 1988";
inline const std::string bertsekas_castanon =
    "D. P. Bertsekas, D. A. Castanon, Parallel synchronous and asynchronous implementations of the auction "
    "algorithm, Parallel Computing 17, 1991";
inline const std::string gale_shapley_1962 =
    "D. Gale, L. S. Shapley, College admissions and the stability of marriage, American Mathematical Monthly "
    "69(1), 1962";
inline const std::string mcvitie_wilson_1971 =
    "D. G. McVitie, L. B. Wilson, The stable marriage problem, Communications of the ACM 14(7), 1971";
inline const std::string pothen_fan =
    "A. Pothen, C.-J. Fan, Computing the block triangular form of a sparse matrix, ACM TOMS 16(4), 1990";
inline const std::string azad_ipdps =
    "A. Azad, M. Halappanavar, S. Rajamanickam, E. G. Boman, A. Khan, A. Pothen, Multithreaded algorithms for "
    "maximum matching in bipartite graphs, IPDPS 2012";
inline const std::string duff_koster_1999 =
    "I. S. Duff, J. Koster, The design and use of algorithms for permuting large entries to the diagonal of "
    "sparse matrices, SIAM J. Matrix Anal. Appl. 20(4), 1999";
inline const std::string duff_koster_2001 =
    "I. S. Duff, J. Koster, On algorithms for permuting large entries to the diagonal of a sparse matrix, SIAM "
    "J. Matrix Anal. Appl. 22(4), 2001";
inline const std::string date_nagi =
    "K. Date, R. Nagi, GPU-accelerated Hungarian algorithms for the linear assignment problem, Parallel "
    "Computing 57, 2016";
inline const std::string davidson_near_far =
    "A. Davidson, S. Baxter, M. Garland, J. D. Owens, Work-efficient parallel GPU methods for single-source "
    "shortest paths, IPDPS 2014";
inline const std::string azad_awpm =
    "A. Azad, A. Buluc, X. S. Li, X. Wang, J. Langguth, A distributed-memory algorithm for computing a heavy-weight "
    "perfect matching on bipartite graphs, SIAM J. Sci. Comput. 42(4), 2020";
inline const std::string deveci_apfb =
    "M. Deveci, K. Kaya, B. Ucar, U. V. Catalyurek, GPU accelerated maximum cardinality matching algorithms for "
    "bipartite graphs, Euro-Par 2013, LNCS 8097";

inline const std::string blondel_louvain =
    "V. D. Blondel, J.-L. Guillaume, R. Lambiotte, E. Lefebvre, Fast unfolding of communities in large networks, "
    "Journal of Statistical Mechanics, P10008, 2008";
inline const std::string lu_grappolo =
    "H. Lu, M. Halappanavar, A. Kalyanaraman, Parallel heuristics for scalable community detection, Parallel "
    "Computing 47, 2015";
inline const std::string naim_louvain_gpu =
    "M. Naim, F. Manne, M. Halappanavar, A. Tumeo, Community detection on the GPU, IPDPS 2017";

}  // namespace matchblas::references
