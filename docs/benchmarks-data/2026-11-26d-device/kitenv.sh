# Source after extracting kit.tar.xz into $KD: points Open MPI, PMIx and the loader at the kit.
export K=$KD/kit PATH=$KD/kit/bin:$PATH LD_LIBRARY_PATH=$KD/kit/lib
export OPAL_PREFIX=$K OPAL_EXEC_PREFIX=$K OPAL_BINDIR=$K/bin OPAL_LIBDIR=$K/lib OPAL_PKGLIBDIR=$K/openmpi3
export OPAL_DATAROOTDIR=$K/share OPAL_DATADIR=$K/share OPAL_PKGDATADIR=$K/share/openmpi OPAL_SYSCONFDIR=$K/etc
export OMPI_MCA_mca_base_component_path=$K/openmpi3 PMIX_MCA_mca_base_component_path=$K/pmix
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_io=ompio
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
export PMIX_INSTALL_PREFIX=$K HWLOC_PLUGINS_PATH=$K/none HWLOC_COMPONENTS=-pci,-opencl,-gl,-xml_libxml
